//! Every kernel of the family, for every dtype, op, mode and variant, parsed by g++.
use super::program;
use crate::codegen::tests_support::syntax_check;
use crate::index::atomic::{strategy, Strategy};
use crate::index::compact_src::{count_src, scan_src, write_src, Access, Out};
use crate::index::flag::validate_src;
use crate::index::gather::{gather_src, take_src};
use crate::index::scatter::{assign_src, atomic_src, ordered_src, per_b_src, Dedupe};
use crate::index::Fix;
use xp_core::{BinaryOp, DType};

const FIXES: [Fix; 4] = [Fix::Raise, Fix::Wrap, Fix::Clip, Fix::Unchecked];

#[test]
fn every_kernel_parses() {
    let mut srcs = vec![];
    for k in 1..=crate::index::MAXK {
        srcs.push(validate_src(k));
    }
    for size in [1, 2, 4, 8, 16] {
        for k in [0, 1, 2, 12] {
            for fix in FIXES {
                for flag in [false, true] {
                    srcs.push(take_src(size, k, fix, flag));
                    srcs.push(gather_src(size, k, fix, flag));
                }
                for dd in [Dedupe::None, Dedupe::Win32, Dedupe::Win64, Dedupe::Keep] {
                    srcs.push(assign_src(size, k, fix, dd, true));
                }
            }
        }
    }
    for which in 0..3 {
        for fix in FIXES {
            for wide in [false, true] {
                srcs.push(per_b_src(which, 2, fix, wide));
            }
        }
    }
    srcs.push(assign_src(8, 3, Fix::Wrap, Dedupe::Keep, false));
    syntax_check("index-copies", &program(&srcs));
    for d in DType::ALL {
        let mut srcs = vec![];
        for &op in BinaryOp::ALL {
            if !op.resolve(d, d).is_ok_and(|(l, _)| l == d) {
                continue;
            }
            if strategy(op, d) != Strategy::Ordered {
                srcs.push(atomic_src(d, op, 1, Fix::Raise, true, false));
                srcs.push(atomic_src(d, op, 2, Fix::Raise, true, true));
                srcs.push(atomic_src(d, op, 2, Fix::Wrap, false, false));
            }
            srcs.push(ordered_src(d, op, 1, Fix::Clip, false, true));
            srcs.push(ordered_src(d, op, 2, Fix::Raise, true, false));
        }
        let size = d.size();
        for (dense, vec) in [(false, 1), (true, 1), (true, (16 / size).clamp(1, 16))] {
            let f = Access { dtype: d, dense, vec };
            srcs.push(count_src(f));
            srcs.push(write_src(f, Out::Coords));
            srcs.push(write_src(
                Access { dtype: DType::Bool, dense: true, vec: 16 },
                Out::Values(Access { vec: 1, ..f }),
            ));
        }
        srcs.push(scan_src());
        syntax_check(&format!("index-{}", d.name()), &program(&srcs));
    }
}
