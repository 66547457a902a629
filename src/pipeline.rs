//! One evaluation as `fieldscope eval` runs it, from loaded inputs to the
//! printed text: shared by the command-line tool ([`crate::cli`]) and the
//! Python package (`python/`), so that both give the same report and the
//! same bytes in every format.
//!
//! Owns: [`ReportOptions`] (details, the literature metrics, the bootstrap),
//! [`evaluate_report`] (the evaluation, then the literature metrics, then
//! the bootstrap), [`merge_report`] (`fieldscope merge`: partial results
//! into that report), [`render_report`] (the report in one output format),
//! [`render_sweep`] (`fieldscope sweep`'s table) and [`figure_files`]
//! (`fieldscope figures`' files, as bytes). Depends on [`crate::eval`],
//! [`crate::export`] and [`crate::charts`]; does no I/O: the callers read
//! the files (or convert Python objects), write what they are given, and
//! check their own arguments (their messages name their own flags or
//! parameters).

use crate::charts::{self, ChartOptions, PaperSize};
use crate::error::{Error, ErrorKind};
use crate::eval::bootstrap::{bootstrap_report, BootstrapOptions};
use crate::eval::evaluate::{evaluate_sources, merge_partials, MergeOptions};
use crate::eval::literature::{self, Metrics};
use crate::eval::source::RecordSource;
use crate::eval::sweep::{sweep, SweepParam, SweepReport};
use crate::eval::{evaluate_owned, Config, DocFile, EvalInput, Report};
use crate::export::{ExportOptions, Format, HtmlInclude};
use std::sync::Arc;

/// What an evaluation adds to the report of SPEC §5 (the flags `--details`,
/// `--metrics`, `--bootstrap`, `--seed`, `--alpha` and `--compare`).
#[derive(Debug, Clone, PartialEq)]
pub struct ReportOptions {
    /// Per-document details in the report (`models[i].document_details`).
    pub details: bool,
    /// The literature's metrics to compute (`models[i].literature`).
    pub metrics: Metrics,
    /// Bootstrap resamples (the report's `bootstrap` key); `None`: no
    /// bootstrap. At least 1: the callers check it.
    pub bootstrap: Option<usize>,
    /// Seed of the bootstrap's resampling.
    pub seed: u64,
    /// Significance level of the paired tests, in (0, 1): the callers
    /// check it.
    pub alpha: f64,
    /// The flipped documents of (baseline, candidate) model names (the
    /// report's `comparison` key, `eval --compare`); `None`: none.
    pub compare: Option<(String, String)>,
}

impl Default for ReportOptions {
    /// The CLI's defaults: no details, no literature metrics, no bootstrap,
    /// seed 1, alpha 0.05.
    fn default() -> Self {
        ReportOptions {
            details: false,
            metrics: Metrics::default(),
            bootstrap: None,
            seed: 1,
            alpha: 0.05,
            compare: None,
        }
    }
}

/// Evaluates `input` under `config` (SPEC §1–§5) and adds what `options`
/// asks for: the literature metrics (each model's files read whole: a
/// source that is not resident is an error) and the bootstrap intervals
/// and paired tests and the flipped documents of `options.compare`
/// (both computed from each document's details, which are dropped again
/// unless `options.details`).
///
/// Errors: those of [`evaluate_sources`] (a schema that is not valid JSON
/// Schema is an [`ErrorKind::Schema`] error naming no file: the caller
/// knows the file), of [`literature::evaluate`] and of
/// [`crate::eval::gate::flips::compare_models`] (a model name not given).
pub fn evaluate_report<S: RecordSource>(
    input: EvalInput<S>,
    config: &Config,
    options: &ReportOptions,
) -> Result<Report, Error> {
    // The literature metrics read the files too; copies only when asked.
    let literature_input = if options.metrics.any() {
        let mut files = Vec::with_capacity(input.models.len());
        for m in &input.models {
            files.push((m.name.clone(), whole(&m.file)?.clone()));
        }
        Some((whole(&input.truth)?.clone(), files))
    } else {
        None
    };
    // The bootstrap resamples each document's counts, which the details
    // carry; the comparison reads each document's fields.
    let details = options.details || options.bootstrap.is_some() || options.compare.is_some();
    let mut report = evaluate_sources(input, config, details)?;
    if let Some((truth, files)) = literature_input {
        let files = files.into_iter().map(|(n, f)| (n, Arc::new(f))).collect();
        let (scores, warnings) = literature::evaluate(
            Arc::new(truth),
            files,
            config.id_field.as_deref(),
            options.metrics,
            options.details,
        )?;
        for (model, lit) in report.models.iter_mut().zip(scores) {
            model.literature = Some(lit);
        }
        report.warnings.extend(warnings);
    }
    if let Some(bootstrap) = options.bootstrap_options() {
        report.bootstrap = Some(bootstrap_report(&report, config, bootstrap));
    }
    if let Some((baseline, candidate)) = &options.compare {
        report.comparison = Some(Box::new(crate::eval::gate::flips::compare_models(
            &report, baseline, candidate,
        )?));
    }
    if !options.details {
        for m in &mut report.models {
            m.document_details = None;
        }
    }
    Ok(report)
}

impl ReportOptions {
    /// The bootstrap's settings, if one is asked for.
    fn bootstrap_options(&self) -> Option<BootstrapOptions> {
        self.bootstrap.map(|resamples| BootstrapOptions {
            resamples,
            seed: self.seed,
            alpha: self.alpha,
            ..BootstrapOptions::default()
        })
    }
}

/// The report one [`evaluate_report`] over the documents of every partial
/// result (`(name, bytes)` from `fieldscope eval --partial` or
/// [`crate::eval::evaluate::evaluate_partial`], in the order their
/// documents follow each other) gives, byte for byte, with `options`'
/// details and bootstrap: what `fieldscope merge` prints.
///
/// Errors: those of [`merge_partials`] (partials that do not belong
/// together, named); a usage error when `options.metrics` asks for
/// literature metrics (they are not merged).
pub fn merge_report(partials: &[(&str, &[u8])], options: &ReportOptions) -> Result<Report, Error> {
    if options.metrics.any() {
        return Err(Error::new(
            ErrorKind::Usage,
            "the literature metrics are not merged: compute them with one evaluation",
        ));
    }
    merge_partials(
        partials,
        &MergeOptions {
            details: options.details,
            bootstrap: options.bootstrap_options(),
        },
    )
}

/// `report` in `format`, exactly as `fieldscope eval --format FORMAT`
/// prints it (HTML: with every chart, no inputs embedded).
pub fn render_report(report: &Report, format: Format) -> String {
    render_report_including(report, format, &HtmlInclude::default())
}

/// [`render_report`] with what an HTML report includes (`include`: the
/// charts, the inputs of `eval --embed-inputs`); other formats ignore it.
pub fn render_report_including(report: &Report, format: Format, include: &HtmlInclude) -> String {
    crate::export::render_including(report, format, &ExportOptions::default(), include)
}

/// The HTML report as a fragment for a notebook (Python's
/// `Report._repr_html_`): the page's sections and charts in one
/// `<div class="fieldscope-report">` whose style applies only inside it
/// (`export::fragment`).
pub fn render_html_fragment(report: &Report) -> String {
    crate::export::page::render_fragment(report, &ExportOptions::default(), &HtmlInclude::default())
}

/// A threshold sweep's table in `format` (json, markdown, latex or csv),
/// exactly as `fieldscope sweep --format FORMAT` prints it.
pub fn render_sweep(report: &SweepReport, format: Format) -> String {
    crate::export::sweep::render(report, format, &ExportOptions::default())
}

/// What `fieldscope figures` draws: the size, the file formats and the
/// sweeps' threshold values.
#[derive(Debug, Clone, PartialEq)]
pub struct FigureOptions {
    pub size: PaperSize,
    pub pdf: bool,
    pub svg: bool,
    /// The values of each threshold sweep (`--values`).
    pub values: Vec<f64>,
}

/// A file to write: its name (no directory) and its bytes.
pub type NamedFile = (String, Vec<u8>);

/// The files `fieldscope figures` writes, in order: for each chart of the
/// report, its confidence charts when a model has confidences (a
/// reliability diagram per such model, `reliability_diagram_N` for the
/// N-th model, and `risk_coverage`) and the charts of the three threshold
/// sweeps (one full evaluation per value), `ID.svg` and `ID.pdf` as asked,
/// then `captions.md` (each figure's files and caption); and the
/// evaluation's warnings.
///
/// Errors: the evaluation's (a schema error names no file), and a chart
/// whose PDF cannot be made (naming `ID.pdf`).
pub fn figure_files(
    input: EvalInput<DocFile>,
    config: &Config,
    options: &FigureOptions,
) -> Result<(Vec<NamedFile>, Vec<String>), Error> {
    figure_files_and_report(input, config, options).map(|(files, report)| (files, report.warnings))
}

/// [`figure_files`] with the report they draw (its warnings and SPEC
/// §7.4's suggestions, which `fieldscope figures` prints).
pub fn figure_files_and_report(
    input: EvalInput<DocFile>,
    config: &Config,
    options: &FigureOptions,
) -> Result<(Vec<NamedFile>, Report), Error> {
    let chart_options = ChartOptions {
        size: options.size,
        ..ChartOptions::default()
    };
    let report = evaluate_owned(input.clone(), config, false)?;
    // (file name without extension, chart)
    let named = |c: charts::Chart| (c.id.to_string(), c);
    let mut figures: Vec<(String, charts::Chart)> = charts::all(&report, &chart_options)
        .into_iter()
        .map(named)
        .collect();
    figures.extend(
        charts::reliability_diagrams(&report, &chart_options)
            .into_iter()
            .map(|(model, c)| (format!("{}_{}", c.id, model + 1), c)),
    );
    figures.extend(charts::risk_coverage(&report, &chart_options).map(named));
    // SPEC §9.1: the error types per model.
    figures.push(named(charts::error_types(&report, &chart_options)));
    for param in SweepParam::ALL {
        let s = sweep(&input, config, param, &options.values)?;
        figures.extend(
            charts::sweep_charts(&s, &chart_options)
                .into_iter()
                .map(named),
        );
    }
    drop(input);

    let mut files = Vec::new();
    let mut captions = format!(
        "# Figures\n\nWritten by fieldscope figures ({}, text {} pt). Each caption says which metric and which average the figure shows.\n\n",
        match options.size {
            PaperSize::SingleColumn => "single column, 3.3 in wide",
            PaperSize::FullWidth => "full width, 7 in wide",
        },
        chart_options.font_pt
    );
    for (name, figure) in &figures {
        captions.push_str(&format!(
            "## {}\n\nFiles: {}\n\n{}\n\n",
            crate::export::markdown::escape(&figure.title),
            [(options.svg, "svg"), (options.pdf, "pdf")]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, ext)| format!("`{name}.{ext}`"))
                .collect::<Vec<_>>()
                .join(", "),
            crate::export::markdown::escape(&figure.caption),
        ));
        if options.svg {
            files.push((format!("{name}.svg"), figure.svg.clone().into_bytes()));
        }
        if options.pdf {
            let bytes = crate::export::pdf::svg_to_pdf(&figure.svg)
                .map_err(|e| e.in_file(format!("{name}.pdf")))?;
            files.push((format!("{name}.pdf"), bytes));
        }
    }
    files.push(("captions.md".to_string(), captions.into_bytes()));
    Ok((files, report))
}

/// The file held in memory; an error for a file read one record at a time.
fn whole<S: RecordSource>(source: &S) -> Result<&DocFile, Error> {
    source.as_doc_file().ok_or_else(|| {
        Error::new(
            ErrorKind::Usage,
            format!(
                "{} is streamed, but this needs the whole file in memory",
                source.name()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::ModelInput;
    use crate::io::parse_docs;

    fn input() -> EvalInput<DocFile> {
        let truth = parse_docs(
            "t.jsonl",
            b"{\"id\":\"a\",\"x\":\"abc\"}\n{\"id\":\"b\",\"x\":\"q\"}\n",
        )
        .unwrap();
        let pred = parse_docs(
            "m.jsonl",
            b"{\"id\":\"a\",\"x\":\"abc\"}\n{\"id\":\"b\",\"x\":\"z\"}\n",
        )
        .unwrap();
        EvalInput {
            truth,
            models: vec![ModelInput::new("m", pred)],
            schema: None,
            schemas: Vec::new(),
        }
    }

    #[test]
    fn the_bootstrap_drops_the_details_it_needed_unless_asked_for() {
        let config = Config::default();
        let options = ReportOptions {
            bootstrap: Some(20),
            ..ReportOptions::default()
        };
        let report = evaluate_report(input(), &config, &options).unwrap();
        assert!(report.bootstrap.is_some());
        assert!(report.models[0].document_details.is_none());
        // One exact and one incorrect value: micro F1 = 2·0.5·0.5/(0.5+0.5) = 0.5.
        assert_eq!(report.models[0].micro.f1, 0.5);
        let options = ReportOptions {
            details: true,
            ..options
        };
        let report = evaluate_report(input(), &config, &options).unwrap();
        assert_eq!(report.models[0].document_details.as_ref().unwrap().len(), 2);
    }

    #[test]
    fn merged_partials_give_the_evaluations_report_and_refuse_the_literature_metrics() {
        use crate::eval::evaluate::evaluate_partial;
        let config = Config::default();
        let options = ReportOptions {
            details: true,
            bootstrap: Some(20),
            ..ReportOptions::default()
        };
        let partial = evaluate_partial(input(), &config, None, true).unwrap();
        let merged = merge_report(&[("p", &partial)], &options).unwrap();
        let single = evaluate_report(input(), &config, &options).unwrap();
        assert_eq!(
            render_report(&merged, Format::Json),
            render_report(&single, Format::Json)
        );
        assert_eq!(merged.models[0].micro.f1, 0.5);
        let metrics = ReportOptions {
            metrics: Metrics::ALL,
            ..ReportOptions::default()
        };
        let e = merge_report(&[("p", &partial)], &metrics).unwrap_err();
        assert!(e.message.contains("not merged"), "{}", e.message);
    }

    #[test]
    fn the_literature_metrics_are_added_when_asked_for() {
        let options = ReportOptions {
            metrics: Metrics::ALL,
            ..ReportOptions::default()
        };
        let report = evaluate_report(input(), &Config::default(), &options).unwrap();
        let lit = report.models[0].literature.as_ref().unwrap();
        assert!(lit.anls_star.is_some() && lit.nted.is_some() && lit.donut_f1.is_some());
        let plain = evaluate_report(input(), &Config::default(), &ReportOptions::default());
        assert!(plain.unwrap().models[0].literature.is_none());
    }
}
