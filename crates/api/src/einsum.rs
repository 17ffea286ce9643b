//! NumPy `einsum`: explicit (`"ij,jk->ik"`) and implicit (`"ij,jk"`) output, `...` for
//! broadcast axes, repeated labels within an operand for traces and diagonals (taken as views).
//! The operands are contracted pairwise, the pair with the smallest result first (greedy, as
//! opt_einsum's default), each contraction one batched matrix product: a chain of operands runs
//! as a chain of `matmul`s, never as one broadcast over every label.
//!
//! ```
//! use xp::einsum;
//! let a = xp::arange(0.0, 6.0, 1.0, None).unwrap().reshape(&[2, 3]).unwrap();
//! let b = xp::arange(0.0, 12.0, 1.0, None).unwrap().reshape(&[3, 4]).unwrap();
//! let c = einsum("ij,jk->ik", &[&a, &b]).unwrap();                 // matmul
//! assert_eq!(c.shape(), &[2, 4]);
//! let sq = xp::arange(0.0, 9.0, 1.0, None).unwrap().reshape(&[3, 3]).unwrap();
//! assert_eq!(einsum("ii", &[&sq]).unwrap().item::<f64>().unwrap(), 12.0); // trace
//! assert_eq!(einsum("ij->ji", &[&a]).unwrap().shape(), &[3, 2]);         // transpose
//! assert_eq!(einsum("...j,j", &[&a, &a.slice(xp::s![0, ..]).unwrap()]).unwrap().shape(), &[2]);
//! assert!(einsum("ij,jk->iz", &[&a, &b]).is_err());                      // z is no input label
//! ```
//!
//! The result dtype is the promotion of the operands' dtypes; sums keep it (integers wrap, bool
//! sums are logical or), as NumPy's einsum does.
use crate::Array;
use std::collections::BTreeMap;
use xp_core::{promote_types, DType, Error, Result};

/// A label: a letter, or an axis of the ellipsis (numbered from the right, above the letters).
type Label = u32;
const ELLIPSIS_BASE: Label = 1 << 16;

fn err(msg: impl Into<String>) -> Error {
    Error::invalid("einsum", msg)
}

/// One operand's subscripts: its letters and where the ellipsis stands (if any).
struct Term {
    labels: Vec<Label>,
    ellipsis: Option<usize>,
}

fn parse_term(t: &str, what: &str) -> Result<Term> {
    let (mut labels, mut ellipsis) = (vec![], None);
    let mut rest = t.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("...") {
            if ellipsis.is_some() {
                return Err(err(format!("{what} '{t}' has more than one ellipsis")));
            }
            ellipsis = Some(labels.len());
            rest = r;
            continue;
        }
        let c = rest.chars().next().expect("non-empty");
        if c.is_ascii_alphabetic() {
            labels.push(c as Label);
        } else if !c.is_whitespace() {
            return Err(err(format!("invalid subscript '{c}' in {what} '{t}': use letters a-z, A-Z and '...'")));
        }
        rest = &rest[c.len_utf8()..];
    }
    Ok(Term { labels, ellipsis })
}

/// An operand during contraction: the array and one label per axis (distinct).
#[derive(Clone)]
struct Op {
    a: Array,
    labels: Vec<Label>,
}

/// The labels of each axis of an operand, the ellipsis expanded to numbered labels.
fn expand(term: &Term, a: &Array, k: usize) -> Result<Vec<Label>> {
    let n = term.labels.len();
    match term.ellipsis {
        None if n != a.ndim() => Err(err(format!(
            "operand {k} has {} dimensions but its subscripts name {n} (use '...' for the rest)",
            a.ndim()
        ))),
        None => Ok(term.labels.clone()),
        Some(_) if n > a.ndim() => {
            Err(err(format!("operand {k} has {} dimensions but its subscripts name {n}", a.ndim())))
        }
        Some(p) => {
            let e = a.ndim() - n;
            let mut l = term.labels[..p].to_vec();
            l.extend((0..e).map(|i| ELLIPSIS_BASE + (e - 1 - i) as Label));
            l.extend_from_slice(&term.labels[p..]);
            Ok(l)
        }
    }
}

/// Take diagonals until every label of the operand is distinct ("ii->i").
fn distinct(mut op: Op) -> Result<Op> {
    while let Some((i, j)) = (0..op.labels.len())
        .flat_map(|i| (i + 1..op.labels.len()).map(move |j| (i, j)))
        .find(|&(i, j)| op.labels[i] == op.labels[j])
    {
        if op.a.shape()[i] != op.a.shape()[j] {
            return Err(err(format!(
                "repeated subscript '{}' on axes of different lengths {} and {}",
                label_name(op.labels[i]),
                op.a.shape()[i],
                op.a.shape()[j]
            )));
        }
        let l = op.labels[i];
        op.a = op.a.diagonal(0, i as isize, j as isize)?;
        op.labels.retain(|&x| x != l);
        op.labels.push(l);
    }
    Ok(op)
}

fn label_name(l: Label) -> String {
    if l >= ELLIPSIS_BASE {
        format!("...[{}]", l - ELLIPSIS_BASE)
    } else {
        char::from_u32(l).map_or("?".into(), String::from)
    }
}

/// Sum `op` over its axes whose labels `keep` rejects, keeping the dtype (bool: logical or).
fn sum_out(op: Op, keep: impl Fn(Label) -> bool) -> Result<Op> {
    let axes: Vec<isize> = (0..op.labels.len()).filter(|&i| !keep(op.labels[i])).map(|i| i as isize).collect();
    if axes.is_empty() {
        return Ok(op);
    }
    let d = op.a.dtype();
    let a = if d == DType::Bool { op.a.any(axes.as_slice())? } else { op.a.sum(axes.as_slice())?.cast_if(d)? };
    let labels = op.labels.iter().copied().filter(|&l| keep(l)).collect();
    Ok(Op { a, labels })
}

/// Contract two operands over their shared labels that `keep` rejects, as one batched matmul:
/// `[batch, free_x, k] @ [batch, k, free_y]`.
fn contract(x: Op, y: Op, keep: impl Fn(Label) -> bool, sizes: &BTreeMap<Label, usize>) -> Result<Op> {
    let inx = |l: &Label| x.labels.contains(l);
    let iny = |l: &Label| y.labels.contains(l);
    let batch: Vec<Label> = x.labels.iter().copied().filter(|l| iny(l) && keep(*l)).collect();
    let summed: Vec<Label> = x.labels.iter().copied().filter(|l| iny(l) && !keep(*l)).collect();
    let fx: Vec<Label> = x.labels.iter().copied().filter(|l| !iny(l)).collect();
    let fy: Vec<Label> = y.labels.iter().copied().filter(|l| !inx(l)).collect();
    let arrange = |op: &Op, order: &[&[Label]]| -> Result<Array> {
        let perm: Vec<isize> = order
            .iter()
            .flat_map(|g| g.iter())
            .map(|l| op.labels.iter().position(|m| m == l).unwrap() as isize)
            .collect();
        let shape: Vec<usize> = order.iter().flat_map(|g| g.iter()).map(|l| sizes[l]).collect();
        let t = op.a.transpose(perm)?.broadcast_to(&shape)?;
        let group = |g: &[Label]| g.iter().map(|l| sizes[l]).product::<usize>();
        t.reshape_exact(&order.iter().map(|g| group(g)).collect::<Vec<_>>())
    };
    let xm = arrange(&x, &[&batch, &fx, &summed])?;
    let ym = arrange(&y, &[&batch, &summed, &fy])?;
    let r = crate::products::matmul_named("einsum", &xm, &ym)?;
    let labels: Vec<Label> = batch.iter().chain(&fx).chain(&fy).copied().collect();
    let shape: Vec<usize> = labels.iter().map(|l| sizes[l]).collect();
    Ok(Op { a: r.reshape_exact(&shape)?, labels })
}

/// Evaluate the Einstein summation `subscripts` over `operands` (NumPy `einsum`).
pub fn einsum(subscripts: &str, operands: &[&Array]) -> Result<Array> {
    let (lhs, rhs) = match subscripts.split_once("->") {
        Some((_, r)) if r.contains("->") => return Err(err("subscripts contain more than one '->'")),
        Some((l, r)) => (l, Some(r)),
        None => (subscripts, None),
    };
    let terms = lhs.split(',').map(|t| parse_term(t, "input")).collect::<Result<Vec<_>>>()?;
    if terms.len() != operands.len() {
        return Err(err(format!("{} operands given for {} input subscripts", operands.len(), terms.len())));
    }
    if let Some(b) = operands.iter().find(|a| a.device() != operands[0].device()) {
        return Err(Error::DeviceMismatch { op: "einsum", lhs: operands[0].device(), rhs: b.device() });
    }
    let dtype = operands.iter().map(|a| a.dtype()).reduce(promote_types).unwrap_or(DType::F64);
    let mut ops = vec![];
    let mut sizes: BTreeMap<Label, usize> = BTreeMap::new();
    let mut ell_dims = 0;
    for (k, (t, a)) in terms.iter().zip(operands).enumerate() {
        let labels = expand(t, a, k)?;
        ell_dims = ell_dims.max(labels.iter().filter(|&&l| l >= ELLIPSIS_BASE).count());
        let op = distinct(Op { a: a.cast_if(dtype)?, labels })?;
        for (&l, &n) in op.labels.iter().zip(op.a.shape()) {
            let e = sizes.entry(l).or_insert(n);
            if *e != n && *e != 1 && n != 1 {
                return Err(err(format!(
                    "operands could not be broadcast together: subscript '{}' has lengths {e} and {n}",
                    label_name(l)
                )));
            }
            *e = (*e).max(n);
        }
        ops.push(op);
    }
    let ellipsis_labels: Vec<Label> = (0..ell_dims).rev().map(|i| ELLIPSIS_BASE + i as Label).collect();
    let out: Vec<Label> = match rhs {
        Some(r) => {
            let t = parse_term(r, "output")?;
            let mut o = t.labels.clone();
            if let Some(p) = t.ellipsis {
                o.splice(p..p, ellipsis_labels.iter().copied());
            } else if ell_dims > 0 {
                return Err(err("output subscripts omit '...' but the inputs have axes under '...'"));
            }
            for (i, l) in o.iter().enumerate() {
                if o[..i].contains(l) {
                    return Err(err(format!("output subscript '{}' appears more than once", label_name(*l))));
                }
                if !sizes.contains_key(l) {
                    return Err(err(format!("output subscript '{}' does not appear in the inputs", label_name(*l))));
                }
            }
            o
        }
        None => {
            let count = |l: Label| terms.iter().map(|t| t.labels.iter().filter(|&&m| m == l).count()).sum::<usize>();
            let mut once: Vec<Label> = sizes.keys().copied().filter(|&l| l < ELLIPSIS_BASE && count(l) == 1).collect();
            once.sort_unstable();
            ellipsis_labels.iter().copied().chain(once).collect()
        }
    };
    // A label stays while the output or another remaining operand needs it.
    let needed = |ops: &[Op], skip: &[usize], l: Label| {
        out.contains(&l) || ops.iter().enumerate().any(|(i, o)| !skip.contains(&i) && o.labels.contains(&l))
    };
    for i in 0..ops.len() {
        let op = ops[i].clone();
        ops[i] = sum_out(op, |l| needed(&ops, &[i], l))?;
    }
    while ops.len() > 1 {
        let mut best = (usize::MAX, 0, 1);
        for i in 0..ops.len() {
            for j in i + 1..ops.len() {
                let size: usize = ops[i]
                    .labels
                    .iter()
                    .chain(ops[j].labels.iter().filter(|l| !ops[i].labels.contains(l)))
                    .filter(|&&l| needed(&ops, &[i, j], l))
                    .map(|l| sizes[l])
                    .product();
                if size < best.0 {
                    best = (size, i, j);
                }
            }
        }
        let (_, i, j) = best;
        let keep: Vec<Label> = sizes.keys().copied().filter(|&l| needed(&ops, &[i, j], l)).collect();
        let y = ops.remove(j);
        let x = ops.remove(i);
        let r = contract(x, y, |l| keep.contains(&l), &sizes)?;
        ops.push(sum_out(r, |l| keep.contains(&l))?);
    }
    let last = sum_out(ops.pop().expect("at least one operand"), |l| out.contains(&l))?;
    let perm: Vec<isize> = out.iter().map(|l| last.labels.iter().position(|m| m == l).unwrap() as isize).collect();
    let shape: Vec<usize> = out.iter().map(|l| sizes[l]).collect();
    let r = last.a.transpose(perm)?;
    if r.shape() == shape.as_slice() {
        Ok(r)
    } else {
        r.broadcast_to(&shape)?.copy() // an output label of length 1 in every operand that held it
    }
}
