//! Comparisons of sparse arrays (sparse bool results), `max`/`min`/`mean`, `argmax`/`argmin`, `setdiag`, assignment,
//! division, the diagonal format,
//! `block_array`, `kronsum` and `spdiags`
//! against SciPy 1.17 (`tests/data/sparse_ops.json`, `scripts/gen_sparse_reference.py`), run by
//! the sparse `ops` tests on every device and through the front end's compositions.
use super::common::array;
use serde_json::Value;
use xp::sparse::{CooArray, Format, Sparse, SparseArray};
use xp::{Array, BinaryOp, Device, Scalar};
use xp_testing::{compare, Expected, Failures, Tolerance};

fn dense_of(v: &Value, tol: Tolerance) -> Expected {
    let (buf, shape) = array(v);
    Expected::new(buf.dtype(), &shape, xp_testing::widen(&buf)).with_tol(tol)
}

fn format_of(s: &str) -> Format {
    match s {
        "csr" => Format::Csr,
        "csc" => Format::Csc,
        _ => Format::Coo,
    }
}

/// `got`'s format and dense form against SciPy's `[format, dense]` (and `nnz` where given).
fn check(f: &mut Failures, what: String, dev: Device, got: xp::Result<SparseArray>, want: &[&Value], tol: Tolerance) {
    f.add(
        (|| {
            let got = got.map_err(|e| format!("error {e}"))?;
            let fmt = format_of(want[0].as_str().unwrap());
            if got.format() != fmt {
                return Err(format!("format {:?}, SciPy's {fmt:?}", got.format()));
            }
            if let Some(n) = want.get(2).and_then(|v| v.as_u64()) {
                if got.nnz() != n as usize {
                    return Err(format!("nnz {} where SciPy stores {n}", got.nnz()));
                }
            }
            compare(&got.toarray().map_err(|e| e.to_string())?, &dense_of(want[1], tol))
        })()
        .map_err(|m| format!("on {dev}: {what}: {m}")),
    );
}

pub(super) fn more(f: &mut Failures, dev: Device, c: &Value, a: &CooArray, b: &CooArray, tol: Tolerance) {
    let name = c["name"].as_str().unwrap();
    let bcsr = b.tocsr().unwrap();
    let op_of = |s: &str| match s {
        "eq" => BinaryOp::Eq,
        "ne" => BinaryOp::Ne,
        "lt" => BinaryOp::Lt,
        "le" => BinaryOp::Le,
        "gt" => BinaryOp::Gt,
        _ => BinaryOp::Ge,
    };
    let exact = Tolerance { rtol: 0.0, atol: 0.0 };
    for (key, want) in c["compare"].as_object().unwrap() {
        let w: Vec<&Value> = want.as_array().unwrap().iter().collect();
        let (op, rest) = key.split_once('_').unwrap();
        let got = match rest.strip_prefix("scalar_") {
            Some(s) => a.tocsr().unwrap().compare_scalar(Scalar::Int(s.parse().unwrap()), op_of(op)),
            None => SparseArray::Coo(a.clone()).asformat(format_of(rest)).unwrap().compare(&bcsr, op_of(op)),
        };
        check(f, format!("{name}: compare {key}"), dev, got, &w, exact);
    }
    let csr = a.tocsr().unwrap();
    for g in c["block_array"].as_array().unwrap() {
        let fmt = format_of(g["format"].as_str().unwrap());
        let (fa, fb) = (
            SparseArray::Csr(csr.clone()).asformat(fmt).unwrap(),
            SparseArray::Csr(bcsr.clone()).asformat(fmt).unwrap(),
        );
        let grid: Vec<Vec<Option<&dyn Sparse>>> = g["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| match x.as_str() {
                        Some("a") => Some(&fa as &dyn Sparse),
                        Some(_) => Some(&fb as &dyn Sparse),
                        None => None,
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&[Option<&dyn Sparse>]> = grid.iter().map(|r| &r[..]).collect();
        let got = xp::sparse::block_array(&rows, None);
        check(f, format!("{name}: block_array {}", g["grid"]), dev, got, &[&g["result_format"], &g["dense"]], tol);
    }
    let ks = &c["kronsum"];
    let (k, j) = (ks["k"].as_u64().unwrap() as usize, ks["j"].as_u64().unwrap() as usize);
    let (ak, bj) = (csr.slice_rows(0, k, 1).unwrap(), bcsr.slice_rows(0, j, 1).unwrap());
    let got = (|| xp::sparse::kronsum(&ak.slice_cols(0, k, 1)?, &bj.slice_cols(0, j, 1)?, None))();
    check(f, format!("{name}: kronsum"), dev, got, &[&ks["format"], &ks["dense"]], tol);
    // max/min (explicit or not) and mean, over everything and along each axis
    if let Some(red) = c.get("reduce").and_then(|r| r.as_object()) {
        for (key, want) in red {
            let mut it = key.split('_');
            let (fname, ax, explicit) = (it.next().unwrap(), it.next().unwrap(), it.next().is_some());
            let axis = ax.parse::<usize>().ok();
            let got = match fname {
                "max" => csr.max(axis, explicit),
                "min" => csr.min(axis, explicit),
                _ => csr.mean(axis),
            };
            // an integer mean is a float whose sum SciPy forms in float64 (xp's integer sum is
            // exact): a float's tolerance
            let t = if fname == "mean" && tol.rtol == 0.0 { Tolerance { rtol: 1e-12, atol: 1e-12 } } else { tol };
            f.add(match got {
                Ok(g) => compare(&g, &dense_of(want, t)).map_err(|m| format!("on {dev}: {name}: {key}: {m}")),
                Err(e) => Err(format!("on {dev}: {name}: {key}: error {e}")),
            });
        }
    }
    // argmax/argmin of the COO operand (duplicates summed first) against NumPy's on the dense one
    for (key, want) in c["argext"].as_object().unwrap() {
        let mut it = key.split('_');
        let (fname, ax, explicit) = (it.next().unwrap(), it.next().unwrap(), it.next().is_some());
        let axis = ax.parse::<usize>().ok();
        let got = if fname == "argmax" { a.argmax(axis, explicit) } else { a.argmin(axis, explicit) };
        f.add(match got {
            Ok(g) => compare(&g, &dense_of(want, exact)).map_err(|m| format!("on {dev}: {name}: {key}: {m}")),
            Err(e) => Err(format!("on {dev}: {name}: {key}: error {e}")),
        });
    }
    for sdg in c["setdiag"].as_array().unwrap() {
        let (buf, shape) = array(&sdg["values"]);
        let values = Array::from_buffer(buf, &shape, dev).unwrap();
        let k = sdg["k"].as_i64().unwrap() as isize;
        let got = csr.setdiag(&values, k);
        if sdg.get("error").is_some() {
            if got.is_ok() {
                f.add(Err(format!("on {dev}: {name}: setdiag(k={k}) past the array: SciPy refuses, xp did not")));
            }
            continue;
        }
        let want = [&Value::from("csr"), &sdg["dense"], &sdg["nnz"]];
        check(f, format!("{name}: setdiag(k={k}, {shape:?})"), dev, got, &want, tol);
    }
    for asg in c["assign"].as_array().unwrap() {
        let load = |v: &Value| {
            let (buf, shape) = array(v);
            Array::from_buffer(buf, &shape, dev).unwrap()
        };
        let (r, cc, v) = (load(&asg["rows"]), load(&asg["cols"]), load(&asg["values"]));
        let want = [&Value::from("csr"), &asg["dense"], &asg["nnz"]];
        check(f, format!("{name}: assign {}", asg["rows"]), dev, csr.assign(&r, &cc, &v), &want, tol);
        let csc = SparseArray::Csr(csr.clone()).asformat(Format::Csc).unwrap();
        let got = csc.assign(&r, &cc, &v).and_then(|x| x.asformat(Format::Csr));
        check(f, format!("{name}: csc assign {}", asg["rows"]), dev, got, &want, tol);
    }
    // true division by a scalar (sparse), a dense row (sparse over the stored positions) and a
    // sparse array (dense)
    let dv = &c["divide"];
    let row = {
        let (buf, shape) = array(&c["dense"]);
        Array::from_buffer(buf, &shape, dev).unwrap().slice([xp::SliceElem::Index(0)]).unwrap()
    };
    let s3: Vec<&Value> = dv["scalar"].as_array().unwrap().iter().collect();
    check(f, format!("{name}: / 3"), dev, csr.divide_scalar(3.0), &s3[..2], tol);
    let sd: Vec<&Value> = dv["dense"].as_array().unwrap().iter().collect();
    check(f, format!("{name}: / dense row"), dev, csr.divide_dense(&row), &sd, tol);
    if let Some(want) = dv.get("sparse") {
        f.add(match csr.divide(&bcsr) {
            Ok(g) => compare(&g, &dense_of(want, tol)).map_err(|m| format!("on {dev}: {name}: / sparse: {m}")),
            Err(e) => Err(format!("on {dev}: {name}: / sparse: error {e}")),
        });
    }
    // the diagonal format: SciPy's `todia` parts, and back
    let dg = &c["dia"];
    f.add(
        (|| {
            let d = csr.todia().map_err(|e| e.to_string())?;
            compare(d.data(), &dense_of(&dg["data"], exact))?;
            compare(d.offsets(), &dense_of(&dg["offsets"], exact))?;
            if d.nnz() as u64 != dg["nnz"].as_u64().unwrap() {
                return Err(format!("nnz {} where SciPy counts {}", d.nnz(), dg["nnz"]));
            }
            let coo = d.tocoo().map_err(|e| e.to_string())?;
            if coo.nnz() as u64 != dg["coo_nnz"].as_u64().unwrap() {
                return Err(format!("tocoo stores {} where SciPy stores {}", coo.nnz(), dg["coo_nnz"]));
            }
            let again = xp::sparse::DiaArray::new(d.data(), d.offsets(), d.shape()).map_err(|e| e.to_string())?;
            compare(&again.toarray().map_err(|e| e.to_string())?, &dense_of(&dg["dense"], tol))?;
            let any = SparseArray::Coo(a.clone()).asformat(Format::Dia).and_then(|x| x.asformat(Format::Csc));
            compare(&any.and_then(|x| x.toarray()).map_err(|e| e.to_string())?, &dense_of(&dg["dense"], tol))
        })()
        .map_err(|m| format!("on {dev}: {name}: dia: {m}")),
    );
    let sd = &c["spdiags"];
    let (buf, shape) = array(&sd["data"]);
    let data = Array::from_buffer(buf, &shape, dev).unwrap();
    let offsets: Vec<isize> = sd["offsets"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap() as isize).collect();
    let got = xp::sparse::spdiags(&data, &offsets, a.shape(), Format::Csr);
    check(f, format!("{name}: spdiags"), dev, got, &[&Value::from("csr"), &sd["dense"], &sd["nnz"]], tol);
}
