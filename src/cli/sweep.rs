//! `fieldscope sweep`: the table of one threshold's sweep, and the
//! `--values` list it shares with `figures`.
//!
//! Owns: the sweep's flags. Depends on `args`, `inputs`,
//! `crate::eval::sweep` and `crate::pipeline`.

use super::args::SweepArgs;
use super::inputs::{load_inputs, schema_error};
use crate::error::{Error, ErrorKind};
use crate::export::Format;
use crate::pipeline::render_sweep;
use std::io::Write;

/// `fieldscope sweep`: the table of one threshold's sweep.
pub(super) fn sweep_command(args: &SweepArgs, stderr: &mut dyn Write) -> Result<String, Error> {
    use crate::eval::sweep::{sweep, SweepParam};
    let format: Format = args.format.parse()?;
    if format == Format::Html {
        return Err(Error::new(
            ErrorKind::Usage,
            "fieldscope sweep prints json, markdown, latex or csv",
        ));
    }
    let param = SweepParam::parse(&args.param)
        .map_err(|e| Error::new(ErrorKind::Usage, format!("--param: {}", e.message)))?;
    let values = parse_values(args.values.as_deref())?;
    let (config, mut input) = load_inputs(&args.input)?;
    let corrected = args
        .corrections
        .apply(&args.input.truth, &config, &mut input)?;
    for w in corrected {
        let _ = writeln!(stderr, "warning: {w}");
    }
    let report =
        sweep(&input, &config, param, &values).map_err(|e| schema_error(&args.input, e))?;
    Ok(render_sweep(&report, format))
}

/// `--values 0,0.1,0.5` (default 0, 0.05, …, 1): every item a
/// non-negative number.
pub(super) fn parse_values(list: Option<&str>) -> Result<Vec<f64>, Error> {
    let Some(list) = list else {
        return Ok(crate::eval::sweep::default_values());
    };
    list.split(',')
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Usage,
                        format!("--values: {:?} is not a non-negative number", v.trim()),
                    )
                })
        })
        .collect()
}
