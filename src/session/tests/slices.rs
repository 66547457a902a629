//! Work in slices, as the worker does it: an evaluation paced (and
//! stopped), a file parsed a line at a time.

use super::*;

/// The worker's evaluation, run with a pace, gives the report the
/// session gives at once, in each validity state; a pace that stops
/// it gives none; its progress climbs to the whole.
#[test]
fn an_evaluation_run_in_slices_equals_one_run_at_once_and_can_be_stopped() {
    let sliced = |s: &mut Session, details: bool| {
        let mut pace = Recording {
            stop_at: None,
            seen: Vec::new(),
        };
        let evaluation = s.evaluation(details).unwrap();
        let (documents, models) = evaluation.size();
        let (report, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
        s.keep(kept.unwrap());
        (report.unwrap().unwrap(), pace.seen, documents, models)
    };
    let mut s = Session::example();
    s.set_setting("preset", Some(json!("invoice-cer")));
    // Validity pending: the provisional report.
    let (report, seen, documents, models) = sliced(&mut s, true);
    assert_eq!((documents, models), (50, 3));
    assert!(report == s.clone().evaluate_with(true).unwrap());
    // Preparing: one pause per record and file while the ids are read,
    // one per document and forest while the kinds are learnt, then one
    // per document in the comparison pass, which flattens the
    // documents as it goes (worth four units a forest); the units
    // climb to (but not past) the total of 6 × forests × records.
    assert_eq!(seen.len(), 4 * 50 + 4 * 50 + 50);
    assert!(seen.iter().all(|&(_, total)| total == 6 * 4 * 50));
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(seen[200].0, 4 * 50, "the kinds pass starts after the ids");
    assert_eq!(
        seen[400].0,
        2 * 4 * 50,
        "the comparison pass after the kinds"
    );
    assert_eq!(seen.last().unwrap().0, 2 * 4 * 50 + 4 * 4 * 49);
    // Validity known: the files and the settings read before comparing
    // are the same: only the comparison pass runs, its units the
    // whole, loading the documents (two units a forest) kept while
    // the worker was idle; the reports are the fresh ones.
    s.compute_validity_now();
    while s.keep_documents(7) == Some(false) {}
    for details in [false, true] {
        let (again, seen, ..) = sliced(&mut s, details);
        assert_eq!(seen.len(), 50);
        assert!(seen.iter().all(|&(_, total)| total == 2 * 4 * 50));
        assert_eq!(seen.last().unwrap().0, 2 * 4 * 49);
        assert!(again == fresh_report(&s, details), "details {details}");
    }
    // No schema.
    let schema = s.files.iter().find(|f| f.role == Role::Schema).unwrap().id;
    s.remove(schema);
    let (report, ..) = sliced(&mut s, false);
    assert!(report == s.clone().evaluate_with(false).unwrap());
    // Stopped: no report, and the pace was asked no further. Stopped
    // while preparing (each time under other absent values, so
    // prepared anew), the next evaluation prepares again; stopped
    // while comparing, the next reuses what was prepared.
    for (stop_at, next) in [(1, 450), (120, 450), (300, 450), (420, 50)] {
        let absent = json!(["NOT_FOUND", "N/A", "", format!("none {stop_at}")]);
        s.set_setting("absent_values", Some(absent));
        let mut pace = Recording {
            stop_at: Some(stop_at),
            seen: Vec::new(),
        };
        let evaluation = s.evaluation(false).unwrap();
        let (stopped, kept) = on_page(|| run_now(evaluation.run(&mut pace))).unwrap();
        assert!(stopped.is_none());
        if let Some(kept) = kept {
            s.keep(kept);
        }
        assert_eq!(pace.seen.len(), stop_at);
        let (report, seen, ..) = sliced(&mut s, false);
        assert_eq!(seen.len(), next, "stopped at {stop_at}");
        let (input, config) = s.inputs().unwrap();
        assert!(report == crate::eval::evaluate_owned(input, &config, false).unwrap());
    }
    // No truth: no evaluation, the session's message. A schema the
    // worker rejects is that file's error; the rest evaluates.
    let mut small = Session::default();
    assert_eq!(
        small.evaluation(false).err(),
        small.evaluate_with(false).err()
    );
    small.add_file("truth.jsonl", b"{\"id\": \"a\", \"x\": 1}\n".to_vec());
    small.add_file("broken.schema.json", br#"{"type": 7}"#.to_vec());
    small.compute_validity_now();
    let (report, _) = run_now(small.evaluation(false).unwrap().run(&mut NoPause)).unwrap();
    assert_eq!(
        report.as_ref().map(|r| r.as_ref().map(|r| r.documents)),
        Some(Ok(1))
    );
    assert_eq!(report, Some(small.evaluate_with(false)));
}

/// The page's parse, a line at a time, keeps what parse_file keeps; its
/// progress climbs through the file's bytes; a result for a file that
/// was given another role or replaced meanwhile is not kept.
#[test]
fn a_file_parsed_in_slices_equals_one_parsed_at_once() {
    let data = generate(&SynthOptions {
        documents: 20,
        seed: 5,
        ..SynthOptions::default()
    });
    let bytes = data.truth_jsonl.clone().into_bytes();
    let mut at_once = Session::default();
    at_once.add_file("truth.jsonl", bytes.clone());
    let mut sliced = Session::default();
    let id = sliced.add_file_pending("truth.jsonl", bytes.clone());
    let job = sliced.parse_job(id).unwrap();
    let mut pace = Recording {
        stop_at: None,
        seen: Vec::new(),
    };
    let parsed = run_now(job.run(&mut pace)).unwrap().unwrap();
    sliced.store_parsed(parsed);
    assert!(sliced.parse_job(id).is_none(), "parsed: no job left");
    assert_eq!(sliced.files[0].records(), Some(20));
    assert!(sliced.evaluate().unwrap() == at_once.evaluate().unwrap());
    // A pause before every line (and the empty one after the last).
    assert_eq!(pace.seen.len(), 21);
    assert!(pace.seen.iter().all(|&(_, total)| total == bytes.len()));
    assert!(pace.seen.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(pace.seen[20].0, bytes.len());
    // Stopped: nothing to store.
    let mut other = Session::default();
    let id = other.add_file_pending("good.jsonl", data.predictions[0].1.clone().into_bytes());
    let mut stop = Recording {
        stop_at: Some(3),
        seen: Vec::new(),
    };
    assert!(run_now(other.parse_job(id).unwrap().run(&mut stop))
        .unwrap()
        .is_none());
    // A result that comes back after the file was given another role
    // is not kept (the file is read again for its new role).
    let job = other.parse_job(id).unwrap();
    assert_eq!(other.files[0].role, Role::Truth, "the first records file");
    let parsed = run_now(job.run(&mut NoPause)).unwrap().unwrap();
    other.set_role(id, Role::Predictions);
    other.store_parsed(parsed);
    assert!(other.files[0].is_pending());
    other.parse_file(id);
    assert_eq!(other.files[0].records(), Some(20));
    // Or after it was removed.
    let id = other.add_file_pending("again.jsonl", bytes);
    let job = other.parse_job(id).unwrap();
    other.remove(id);
    other.store_parsed(run_now(job.run(&mut NoPause)).unwrap().unwrap());
    assert_eq!(other.files.len(), 1);
}
