//! The literature metrics (ANLS\*, Donut's nTED and field F1) over two
//! arbitrary JSON documents: the bytes are cut at the first 0xFF into a
//! ground truth and a prediction, each read as the app and the CLI read a
//! JSON document. Scoring never panics, never stalls (the work budget
//! refuses what is too large), and every defined value lies in [0, 1].
#![no_main]
use fieldscope::eval::literature::{Accumulator, Metrics};
use fieldscope::io::parse_json_value;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == 0xFF);
    let (Some(gt), Some(pred)) = (parts.next(), parts.next()) else {
        return;
    };
    let (Ok(gt), Ok(pred)) = (
        parse_json_value("truth.json", gt),
        parse_json_value("pred.json", pred),
    ) else {
        return;
    };
    let mut acc = Accumulator::new(Metrics::ALL, true);
    acc.add("doc", &gt, &pred);
    let (report, _warnings) = acc.finish();
    for value in [report.anls_star, report.nted, report.donut_f1]
        .into_iter()
        .flatten()
        .flatten()
    {
        assert!((0.0..=1.0).contains(&value), "{value} outside [0, 1]");
    }
});
