// CUDA's special functions that glibc lacks (xp::special; kernels/special.cu), stubbed so that
// g++ parses the prelude (appended to host_stub.h and to the sort emulator's emu.h).
inline double erfcx(double x) { return x; }
inline float erfcxf(float x) { return x; }
inline double erfinv(double x) { return x; }
inline float erfinvf(float x) { return x; }
inline double erfcinv(double x) { return x; }
inline float erfcinvf(float x) { return x; }
inline double normcdf(double x) { return x; }
inline float normcdff(float x) { return x; }
inline double normcdfinv(double x) { return x; }
inline float normcdfinvf(float x) { return x; }
inline double cyl_bessel_i0(double x) { return x; }
inline float cyl_bessel_i0f(float x) { return x; }
inline double cyl_bessel_i1(double x) { return x; }
inline float cyl_bessel_i1f(float x) { return x; }
