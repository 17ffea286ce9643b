//! Sweep rows of indexing (`take`, `put`, `compress`, `choose`, `select`, `nonzero`, `where`,
//! index helpers, `scatter_*` against `cupyx.scatter_*` / `numpy.ufunc.at`), sorting (`sort`,
//! `argsort`, `partition`, `argpartition`, `lexsort`, `searchsorted`) and sets (`unique` and the
//! Array API's `unique_*`, `union1d`, `intersect1d`, `setdiff1d`, `setxor1d`, `isin`): 2^22
//! elements (2048² for 2-D ones), float32 values and int64 indices or set elements.
//!
//! `--check` compares what is well defined: the values an `argsort` orders, the `kth` element
//! of a `partition`, the unique values in sorted order.
use super::{checked, ints, many, one, uniform, Cmp, Row};
use xp::{Array, DType, IndexMode, Side, UniqueOptions};

const L: usize = 1 << 22;
const K: isize = 1 << 21;

pub(super) fn rows(r: &mut Vec<Row>, gpu: bool) {
    indexing(r);
    sorting(r, gpu);
    sets(r, gpu);
}

fn indexing(r: &mut Vec<Row>) {
    let ai = "a = uniform(1 << 22); i = ints(1 << 22, 1 << 22, 1)";
    r.push(Row::new("take", "2^22 from 2^22 f32", ai, "xp.take(a, i)", |d| {
        let (a, i) = (uniform(&[L], 0, d)?, ints(&[L], L as u64, 1, d)?);
        one(move || a.take(&i, 0))
    }));
    r.push(Row::new(
        "take_along_axis",
        "2048x2048 f32, axis -1",
        "a = uniform((2048, 2048)); i = ints((2048, 2048), 2048, 1)",
        "xp.take_along_axis(a, i, axis=-1)",
        |d| {
            let (a, i) = (uniform(&[2048, 2048], 0, d)?, ints(&[2048, 2048], 2048, 1, d)?);
            one(move || xp::take_along_axis(&a, &i, -1))
        },
    ));
    r.push(
        Row::new(
            "put",
            "2^22 into 2^22 f32, wrap",
            format!("{ai}; v = uniform(1 << 22, 2)"),
            "xp.put(a, i, v, mode='wrap')",
            |d| {
                let (a, i, v) = (uniform(&[L], 0, d)?, ints(&[L], L as u64, 1, d)?, uniform(&[L], 2, d)?);
                one(move || {
                    a.put(&i, &v, IndexMode::Wrap)?;
                    Ok(a.clone())
                })
            },
        )
        .out("[a]"),
    );
    r.push(
        Row::new(
            "put_along_axis",
            "2048x2048 f32, axis -1",
            "a = uniform((2048, 2048)); i = ints((2048, 2048), 2048, 1); v = uniform((2048, 2048), 2)",
            "xp.put_along_axis(a, i, v, axis=-1)",
            |d| {
                let a = uniform(&[2048, 2048], 0, d)?;
                let (i, v) = (ints(&[2048, 2048], 2048, 1, d)?, uniform(&[2048, 2048], 2, d)?);
                one(move || {
                    xp::put_along_axis(&a, &i, &v, -1)?;
                    Ok(a.clone())
                })
            },
        )
        .out("[a]"),
    );
    let ac = "a = uniform(1 << 22); c = uniform(1 << 22, 1) < 0.5";
    r.push(Row::new("compress", "2^22 f32, half true", ac, "xp.compress(c, a, axis=0)", |d| {
        let (a, c) = (uniform(&[L], 0, d)?, uniform(&[L], 1, d)?.lt(0.5)?);
        one(move || xp::compress(&c, &a, 0))
    }));
    r.push(Row::new("extract", "2^22 f32, half true", ac, "xp.extract(c, a)", |d| {
        let (a, c) = (uniform(&[L], 0, d)?, uniform(&[L], 1, d)?.lt(0.5)?);
        one(move || xp::extract(&c, &a))
    }));
    r.push(
        Row::new(
            "place",
            "2^22 f32, half true, 1024 values",
            format!("{ac}; v = uniform(1024, 2)"),
            "xp.place(a, c, v)",
            |d| {
                let (a, c, v) = (uniform(&[L], 0, d)?, uniform(&[L], 1, d)?.lt(0.5)?, uniform(&[1024], 2, d)?);
                one(move || {
                    xp::place(&a, &c, &v)?;
                    Ok(a.clone())
                })
            },
        )
        .out("[a]"),
    );
    r.push(Row::new(
        "choose",
        "2^22 f32, 4 choices",
        "i = ints(1 << 22, 4, 1); cs = [uniform(1 << 22, 2 + k) for k in range(4)]",
        "xp.choose(i, cs)",
        |d| {
            let i = ints(&[L], 4, 1, d)?;
            let cs = (0..4).map(|k| uniform(&[L], 2 + k, d)).collect::<xp::Result<Vec<Array>>>()?;
            one(move || xp::choose(&i, &cs.iter().collect::<Vec<_>>(), IndexMode::Raise))
        },
    ));
    r.push(Row::new(
        "select",
        "2^22 f32, 3 conditions",
        "a = uniform(1 << 22); cs = [uniform(1 << 22, 2 + k) for k in range(3)]; conds = [a < 0.25, a < 0.5, a < 0.75]",
        "xp.select(conds, cs, 0.0)",
        |d| {
            let a = uniform(&[L], 0, d)?;
            let cs = (0..3).map(|k| uniform(&[L], 2 + k, d)).collect::<xp::Result<Vec<Array>>>()?;
            let conds = [a.lt(0.25)?, a.lt(0.5)?, a.lt(0.75)?];
            one(move || xp::select(&conds.iter().collect::<Vec<_>>(), &cs.iter().collect::<Vec<_>>(), 0.0))
        },
    ));
    r.push(Row::new(
        "where",
        "2^22 f32",
        "c = uniform(1 << 22, 1) < 0.5; a = uniform(1 << 22); b = uniform(1 << 22, 2)",
        "xp.where(c, a, b)",
        |d| {
            let (c, a, b) = (uniform(&[L], 1, d)?.lt(0.5)?, uniform(&[L], 0, d)?, uniform(&[L], 2, d)?);
            one(move || xp::where_(&c, &a, &b))
        },
    ));
    let m = "m = uniform(1 << 22, 1) < 0.5";
    r.push(Row::new("nonzero", "2^22 bool, half true", m, "xp.nonzero(m)", |d| {
        let m = uniform(&[L], 1, d)?.lt(0.5)?;
        many(move || xp::nonzero(&m))
    }));
    r.push(Row::new("flatnonzero", "2^22 bool, half true", m, "xp.flatnonzero(m)", |d| {
        let m = uniform(&[L], 1, d)?.lt(0.5)?;
        one(move || xp::flatnonzero(&m))
    }));
    r.push(Row::new(
        "argwhere",
        "2048x2048 bool, half true",
        "m = uniform((2048, 2048), 1) < 0.5",
        "xp.argwhere(m)",
        |d| {
            let m = uniform(&[2048, 2048], 1, d)?.lt(0.5)?;
            one(move || xp::argwhere(&m))
        },
    ));
    r.push(Row::new(
        "ix_",
        "2048, 2048 int64",
        "i = ints(2048, 2048, 1); j = ints(2048, 2048, 2)",
        "xp.ix_(i, j)",
        |d| {
            let (i, j) = (ints(&[2048], 2048, 1, d)?, ints(&[2048], 2048, 2, d)?);
            many(move || xp::ix_(&[&i, &j]))
        },
    ));
    r.push(Row::new(
        "unravel_index",
        "2^22 into 2048x2048",
        "i = ints(1 << 22, 1 << 22, 1)",
        "xp.unravel_index(i, (2048, 2048))",
        |d| {
            let i = ints(&[L], L as u64, 1, d)?;
            many(move || xp::unravel_index(&i, &[2048, 2048]))
        },
    ));
    r.push(Row::new(
        "ravel_multi_index",
        "2^22 in 2048x2048",
        "rr = ints(1 << 22, 2048, 1); cc = ints(1 << 22, 2048, 2)",
        "xp.ravel_multi_index((rr, cc), (2048, 2048))",
        |d| {
            let (rr, cc) = (ints(&[L], 2048, 1, d)?, ints(&[L], 2048, 2, d)?);
            one(move || xp::ravel_multi_index(&[&rr, &cc], &[2048, 2048], IndexMode::Raise))
        },
    ));
    r.push(Row::new("diag_indices", "2048, 2-D", "", "xp.diag_indices(2048)", |d| {
        many(move || xp::diag_indices(2048, 2, d))
    }));
    r.push(Row::new("tril_indices", "2048", "", "xp.tril_indices(2048)", |d| {
        many(move || {
            let (i, j) = xp::tril_indices(2048, 0, None, d)?;
            Ok(vec![i, j])
        })
    }));
    r.push(Row::new("triu_indices", "2048", "", "xp.triu_indices(2048)", |d| {
        many(move || {
            let (i, j) = xp::triu_indices(2048, 0, None, d)?;
            Ok(vec![i, j])
        })
    }));
    // scatter: cupyx.scatter_* on the GPU, numpy's ufunc.at on the CPU
    type Scatter = fn(&Array, &Array, &Array) -> xp::Result<()>;
    let scatters: [(&str, f64, Scatter); 3] = [
        ("add", 0.0, |b, i, v| xp::scatter_add(b, i, v)),
        ("max", 0.0, |b, i, v| xp::scatter_max(b, i, v)),
        ("min", 2.0, |b, i, v| xp::scatter_min(b, i, v)),
    ];
    for (op, init, f) in scatters {
        r.push(
            Row::new(
                &format!("scatter_{op}"),
                "2^22 into 2^16 f32",
                format!("bins = xp.full(1 << 16, {init}, dtype=xp.float32); i = ints(1 << 22, 1 << 16, 1); v = uniform(1 << 22, 2)"),
                format!("scatter('{op}', bins, i, v)"),
                move |d| {
                    let bins = xp::on(d).full([1 << 16], init, DType::F32)?;
                    let (i, v) = (ints(&[L], 1 << 16, 1, d)?, uniform(&[L], 2, d)?);
                    one(move || {
                        f(&bins, &i, &v)?;
                        Ok(bins.clone())
                    })
                },
            )
            .out("[bins]"),
        );
    }
}

fn sorting(r: &mut Vec<Row>, gpu: bool) {
    let a1 = "a = uniform(1 << 22)";
    r.push(Row::new("sort", "2^22 f32", a1, "xp.sort(a)", |d| {
        let a = uniform(&[L], 0, d)?;
        one(move || a.sort(-1))
    }));
    r.push(Row::new("sort", "2048x2048 f32, axis -1", "a = uniform((2048, 2048))", "xp.sort(a, axis=-1)", |d| {
        let a = uniform(&[2048, 2048], 0, d)?;
        one(move || a.sort(-1))
    }));
    r.push(
        Row::new("argsort", "2^22 f32", a1, "xp.argsort(a)", |d| {
            let a = uniform(&[L], 0, d)?;
            checked(move |c| {
                let i = a.argsort(-1)?;
                Ok(vec![if c { a.take(&i, 0)? } else { i }])
            })
        })
        .out("[a[r]]"),
    );
    r.push(
        Row::new("partition", "2^22 f32, kth 2^21", a1, "xp.partition(a, 1 << 21)", |d| {
            let a = uniform(&[L], 0, d)?;
            checked(move |c| {
                let p = a.partition(&[K], -1)?;
                Ok(vec![if c { p.slice(xp::s![K..K + 1])? } else { p }])
            })
        })
        .out("[r[1 << 21:(1 << 21) + 1]]"),
    );
    r.push(
        Row::new("argpartition", "2^22 f32, kth 2^21", a1, "xp.argpartition(a, 1 << 21)", |d| {
            let a = uniform(&[L], 0, d)?;
            checked(move |c| {
                let i = a.argpartition(&[K], -1)?;
                Ok(vec![if c { a.take(&i.slice(xp::s![K..K + 1])?, 0)? } else { i }])
            })
        })
        .out("[a[r[1 << 21:(1 << 21) + 1]]]"),
    );
    r.push(Row::new(
        "lexsort",
        "2 keys of 2^22 int64 < 1024",
        "k = xp.stack([ints(1 << 22, 1024, 1), ints(1 << 22, 1024, 2)])",
        "xp.lexsort(k)",
        |d| {
            let (k0, k1) = (ints(&[L], 1024, 1, d)?, ints(&[L], 1024, 2, d)?);
            one(move || xp::lexsort(&[&k0, &k1]))
        },
    ));
    // 2^22 random queries take over 2 s on the CPU (a cache miss each): 2^20 there
    let (q, size) = if gpu { (22, "2^22 in sorted 2^22 f32") } else { (20, "2^20 in sorted 2^22 f32 (CPU; GPU 2^22)") };
    r.push(Row::new(
        "searchsorted",
        size,
        format!("s = xp.sort(uniform(1 << 22)); v = uniform(1 << {q}, 1)"),
        "xp.searchsorted(s, v)",
        move |d| {
            let (s, v) = (uniform(&[L], 0, d)?.sort(-1)?, uniform(&[1 << q], 1, d)?);
            one(move || xp::searchsorted(&s, &v, Side::Left, None))
        },
    ));
}

fn sets(r: &mut Vec<Row>, gpu: bool) {
    let a = "a = ints(1 << 22, 1 << 16)";
    let size = "2^22 int64 < 2^16";
    r.push(Row::new("unique", size, a, "xp.unique(a)", |d| {
        let a = ints(&[L], 1 << 16, 0, d)?;
        one(move || Ok(xp::unique(&a, UniqueOptions::default(), ..)?.values))
    }));
    r.push(
        Row::new("unique_values", size, a, "xp.unique_values(a)", |d| {
            let a = ints(&[L], 1 << 16, 0, d)?;
            one(move || xp::unique_values(&a))
        })
        .cmp(Cmp::Sorted),
    );
    r.push(Row::new("unique_counts", size, a, "xp.unique_counts(a)", |d| {
        let a = ints(&[L], 1 << 16, 0, d)?;
        many(move || {
            let u = xp::unique_counts(&a)?;
            Ok(vec![u.values, u.counts.expect("counts")])
        })
    }));
    r.push(Row::new("unique_inverse", size, a, "xp.unique_inverse(a)", |d| {
        let a = ints(&[L], 1 << 16, 0, d)?;
        many(move || {
            let u = xp::unique_inverse(&a)?;
            Ok(vec![u.values, u.inverse.expect("inverse")])
        })
    }));
    r.push(Row::new("unique_all", size, a, "xp.unique_all(a)", |d| {
        let a = ints(&[L], 1 << 16, 0, d)?;
        many(move || {
            let u = xp::unique_all(&a)?;
            Ok(vec![u.values, u.indices.expect("indices"), u.inverse.expect("inverse"), u.counts.expect("counts")])
        })
    }));
    // NumPy 2's hashing `unique` takes 8 s for these at 2^22 on the CPU: 2^20 there
    let (n, size) =
        if gpu { (22, "2^22, 2^22 int64 < 2^23") } else { (20, "2^20, 2^20 int64 < 2^21 (CPU; GPU 2^22 < 2^23)") };
    let ab = format!("a = ints(1 << {n}, 1 << {}, 1); b = ints(1 << {n}, 1 << {}, 2)", n + 1, n + 1);
    type Set = fn(&Array, &Array) -> xp::Result<Array>;
    let ops: [(&str, Set); 4] = [
        ("union1d", xp::union1d),
        ("intersect1d", xp::intersect1d),
        ("setdiff1d", xp::setdiff1d),
        ("setxor1d", xp::setxor1d),
    ];
    for (name, f) in ops {
        r.push(Row::new(name, size, ab.clone(), format!("xp.{name}(a, b)"), move |d| {
            let (a, b) = (ints(&[1 << n], 2 << n, 1, d)?, ints(&[1 << n], 2 << n, 2, d)?);
            one(move || f(&a, &b))
        }));
    }
    r.push(Row::new(
        "isin",
        "2^22 in 2^16 int64 < 2^23",
        "a = ints(1 << 22, 1 << 23, 1); t = ints(1 << 16, 1 << 23, 3)",
        "xp.isin(a, t)",
        |d| {
            let (a, t) = (ints(&[L], 1 << 23, 1, d)?, ints(&[1 << 16], 1 << 23, 3, d)?);
            one(move || xp::isin(&a, &t))
        },
    ));
}
