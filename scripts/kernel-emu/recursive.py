#!/usr/bin/env python3
"""Run xp's recursive-filter (recursive.cu) CUDA kernels on the host, under the block emulator in emu.h (a std::thread per
CUDA thread, barriers for __syncthreads and the warp shuffles), against NumPy/SciPy: a check of
the kernels' logic that needs no GPU. Slow (every barrier is a futex): small sizes by default.

    python3 scripts/kernel-emu/recursive.py          # needs g++, numpy, scipy
"""
import os, subprocess, sys, tempfile
HERE=os.path.dirname(os.path.abspath(__file__))
OUT=os.path.join(tempfile.gettempdir(),'xp-kernel-emu')
os.makedirs(OUT,exist_ok=True)
src_dir=os.path.join(HERE,'..','..','crates','cuda','src')+'/'
prelude=open(src_dir+'runtime/prelude.cu').read()
src=open(src_dir+'recursive.cu').read().replace('extern __shared__ cd smem_[];','')
W='''
extern "C" void run_local(const T* x, i64 n, i64 lines, i64 chunks, i64 L, const T* coef, const T* zi, T* loc, int threads, int grid) {
  launch(grid, threads, [=] { xp_iir_local(x, n, lines, chunks, L, coef, zi, loc); }); }
extern "C" void run_carry(const T* loc, i64 lines, i64 chunks, i64 G, const T* pw, int levels, T* start, int threads, int grid) {
  launch(grid, threads, [=] { xp_iir_carry(loc, lines, chunks, G, pw, levels, start); }); }
extern "C" void run_apply(const T* x, i64 n, i64 lines, i64 chunks, i64 L, const T* coef, const T* zi, const T* start, T* y, T* zf, int threads, int grid) {
  launch(grid, threads, [=] { xp_iir_apply(x, n, lines, chunks, L, coef, zi, start, y, zf); }); }
'''
for d,t in [('f64','double'),('c128','cd'),('f32','float')]:
    for kind in [0,1]:
        for K in [1,2,4,6]:
            if kind==1 and K%2: continue
            nc=2*(K+1) if kind==0 else 3*K
            code='#include "emu.h"\n'+prelude+f"\ntypedef {t} T;\n#define K {K}\n#define SOS {kind}\n#define NCOEF {nc}\nalignas(16) cd smem_[16384];\n"+src+"\nEMU_GLOBALS\n"+W
            f=f'{OUT}/iir_{d}_{kind}_{K}'
            open(f+'.cpp','w').write(code)
            r=subprocess.run(['g++','-std=c++17','-O1','-mfma','-ffp-contract=fast','-fPIC','-shared','-w','-pthread','-I'+HERE,f+'.cpp','-o',f+'.so'],capture_output=True,text=True)
            if r.returncode: print(r.stderr[:3000]); sys.exit(1)
print('built')

# ---- the checks
import ctypes as C
import numpy as np
from scipy import signal
rng=np.random.default_rng(7)
P=lambda a: a.ctypes.data_as(C.c_void_p)
I=C.c_longlong
def mpow(M,p): return np.linalg.matrix_power(M,p)
def transition(kind,coef,K):
    # run the recursion one zero-input step on unit states
    M=np.zeros((K,K),complex)
    for j in range(K):
        z=np.zeros(K,complex); z[j]=1
        if kind==0:
            b,a=coef[:K+1],coef[K+1:]
            y=z[0]; zn=np.empty(K,complex)
            for i in range(K-1): zn[i]=z[i+1]-y*a[i+1]
            zn[K-1]=-y*a[K]
        else:
            cur=0; zn=z.copy()
            for s in range(K//2):
                c=coef[6*s:6*s+6]; nw=c[0]*cur+zn[2*s]; z0=c[1]*cur-c[4]*nw+zn[2*s+1]; z1=c[2]*cur-c[5]*nw; zn[2*s]=z0; zn[2*s+1]=z1; cur=nw
        M[:,j]=zn
    return M
def run(d,dt,kind,K,x,coef,zi,L,nt=8):
    lib=C.CDLL(f'{OUT}/iir_{d}_{kind}_{K}.so')
    lines,n=x.shape; chunks=(n+L-1)//L
    x=np.ascontiguousarray(x.astype(dt)); coef=coef.astype(dt); zi=np.ascontiguousarray(zi.astype(dt))
    loc=np.zeros((lines*chunks,K),dt); start=np.zeros((lines*chunks,K),dt); y=np.zeros_like(x); zf=np.zeros((lines,K),dt)
    lib.run_local(P(x),I(n),I(lines),I(chunks),I(L),P(coef),P(zi),P(loc),32,2)
    G=(chunks+nt-1)//nt; levels=int(np.log2(nt))
    M=transition(kind,coef.astype(complex),K); Pm=mpow(M,L)
    mats=[Pm]+[mpow(Pm,G*2**dd) for dd in range(levels)]
    pw=np.ascontiguousarray(np.array(mats).astype(dt) if np.iscomplexobj(np.zeros(1,dt)) else np.real(np.array(mats)).astype(dt))
    lib.run_carry(P(loc),I(lines),I(chunks),I(G),P(pw),levels,P(start),nt,2)
    lib.run_apply(P(x),I(n),I(lines),I(chunks),I(L),P(coef),P(zi),P(start),P(y),P(zf),32,2)
    return y,zf
bad=0
for d,dt in [('f64',np.float64),('c128',np.complex128),('f32',np.float32)]:
    for kind in [0,1]:
        for K in [1,2,4,6]:
            if kind==1 and K%2: continue
            if kind==0:
                b,a=signal.butter(K,0.2); 
                if dt==np.complex128: b=b*(1+0.5j)
                coef=np.concatenate([b,a])
            else:
                sos=signal.butter(K,0.2,output='sos'); coef=sos.ravel()
            lines,n=3,1000
            x=rng.standard_normal((lines,n)); zi=rng.standard_normal((lines,K))
            if dt==np.complex128: x=x+1j*rng.standard_normal((lines,n))
            for L in [64,128,1000,37]:
                y,zf=run(d,dt,kind,K,x,coef,zi,L)
                if kind==0: yr,zr=signal.lfilter(coef[:K+1].astype(dt),coef[K+1:].astype(dt),x.astype(dt),zi=zi.astype(dt))
                else: yr,zr=signal.sosfilt(sos.astype(dt),x.astype(dt),zi=zi.reshape(lines,K//2,2).transpose(1,0,2).astype(dt)); zr=zr.transpose(1,0,2).reshape(lines,K)
                tol=1e-3 if dt==np.float32 else 1e-10
                e=np.abs(y-yr).max()/np.abs(yr).max(); ez=np.abs(zf-zr).max()/max(np.abs(zr).max(),1)
                if not (e<tol and ez<tol): bad+=1; print('FAIL',d,kind,K,L,e,ez)
print('bad',bad)
