//! The CUDA C types of xp's dtypes as the generated kernels spell them (storage and compute
//! types, stores), the prelude, and the g++ syntax check that the kernel tests of every module
//! share.
use xp_core::DType;

pub(crate) use crate::runtime::nvrtc::PRELUDE;

/// How elements of a dtype are stored in device memory.
pub(crate) fn storage_ty(d: DType) -> &'static str {
    match d {
        DType::F16 => "xp_h",
        DType::BF16 => "xp_bh",
        d => xp_core::kernel::print::c_type(d),
    }
}

/// The type arithmetic on a dtype runs in (float16 and bfloat16 compute in float): the names
/// the kernel IR prints too.
pub(crate) fn compute_ty(d: DType) -> &'static str {
    xp_core::kernel::print::c_type(d)
}

/// Bytes of `d`'s compute type.
pub(crate) fn compute_size(d: DType) -> usize {
    match d {
        DType::F16 | DType::BF16 => 4,
        d => d.size(),
    }
}

/// An expression that turns a compute value into the storage type of `d`.
pub(crate) fn store(d: DType, v: &str) -> String {
    match d {
        DType::F16 => format!("st_h({v})"),
        DType::BF16 => format!("st_bh({v})"),
        _ => format!("({})({v})", storage_ty(d)),
    }
}

/// The g++ syntax check of generated CUDA, shared by the kernel tests of every module.
#[cfg(test)]
pub(crate) mod tests_support {
    use std::path::{Path, PathBuf};
    use std::process::Command;
    use std::sync::OnceLock;

    const STUB: &str = concat!(include_str!("runtime/host_stub.h"), include_str!("runtime/special_stub.h"));
    const FLAGS: [&str; 3] = ["-std=c++17", "-fsyntax-only", "-w"];

    /// The stub and the prelude as g++'s precompiled header, made once per content (parsing them
    /// is most of a check's time: 0.24 s against 0.04 s from the header), shared by every test
    /// process through a path named by their hash; None where it cannot be made.
    fn precompiled() -> Option<&'static Path> {
        static HEADER: OnceLock<Option<PathBuf>> = OnceLock::new();
        HEADER
            .get_or_init(|| {
                let text = format!("{STUB}\n{}\n", super::PRELUDE);
                let hash =
                    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
                let dir = std::env::temp_dir().join(format!("xp-codegen-pch-{hash:016x}"));
                let header = dir.join("pre.h");
                if dir.join("pre.h.gch").exists() {
                    return Some(header);
                }
                // Made beside the target under a private name, then renamed into place.
                let tmp = std::env::temp_dir().join(format!("xp-codegen-pch-{hash:016x}.{}", std::process::id()));
                std::fs::create_dir_all(&tmp).ok()?;
                std::fs::write(tmp.join("pre.h"), &text).ok()?;
                let made = Command::new("g++")
                    .args(["-std=c++17", "-w", "-x", "c++-header"])
                    .arg(tmp.join("pre.h"))
                    .arg("-o")
                    .arg(tmp.join("pre.h.gch"))
                    .status()
                    .is_ok_and(|s| s.success());
                if !made || std::fs::rename(&tmp, &dir).is_err() {
                    let _ = std::fs::remove_dir_all(&tmp);
                }
                dir.join("pre.h.gch").exists().then_some(header)
            })
            .as_deref()
    }

    /// Parse `src` (prelude included) with g++, CUDA keywords stubbed out; skipped without g++.
    pub(crate) fn syntax_check(name: &str, src: &str) {
        // as NVRTC is given it: the special functions where the kernel calls one
        let src = &*crate::runtime::nvrtc::with_special(src);
        let dir = std::env::temp_dir().join(format!("xp-codegen-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.cpp");
        let mut cmd = Command::new("g++");
        cmd.args(FLAGS);
        match (src.strip_prefix(super::PRELUDE), precompiled()) {
            (Some(rest), Some(header)) => {
                std::fs::write(&file, rest).unwrap();
                cmd.arg("-include").arg(header);
            }
            _ => std::fs::write(&file, format!("{STUB}\n{src}")).unwrap(),
        }
        let out = cmd.arg(&file).output();
        let _ = std::fs::remove_dir_all(&dir);
        match out {
            Err(_) => eprintln!("codegen test {name}: g++ not found, syntax check skipped"),
            Ok(o) => assert!(
                o.status.success(),
                "{name}: generated CUDA does not parse:\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Without a GPU: every device expression the front end can ask for, and every kernel
    //! template for every dtype, parsed by g++ with the CUDA keywords stubbed out. This catches
    //! missing overloads and template mistakes before any device time is spent.
    use super::tests_support::syntax_check;
    use super::*;
    use xp_core::{BinaryOp, UnaryOp};

    #[test]
    fn every_op_expression_parses_for_its_loop_dtypes() {
        let mut body = String::from(PRELUDE);
        let mut k = 0;
        for d in DType::ALL {
            let ct = compute_ty(d);
            for &op in UnaryOp::ALL {
                if op.resolve(d).is_ok_and(|(l, _)| l == d) {
                    body += &format!("void t{k}() {{ {ct} x0 = {ct}(); auto r = u_{}(x0); (void)r; }}\n", op.name());
                    k += 1;
                }
            }
            for &op in BinaryOp::ALL {
                if op.resolve(d, d).is_ok_and(|(l, _)| l == d) {
                    body += &format!(
                        "void t{k}() {{ {ct} x0 = {ct}(), x1 = {ct}(); auto r = b_{}(x0, x1); (void)r; }}\n",
                        op.name()
                    );
                    k += 1;
                }
            }
            for to in DType::ALL {
                body += &format!("void t{k}() {{ {ct} x0 = {ct}(); auto r = cv<{}>(x0); (void)r; }}\n", compute_ty(to));
                k += 1;
            }
        }
        assert!(k > 600, "{k} expressions");
        syntax_check("ops", &body);
    }
}
