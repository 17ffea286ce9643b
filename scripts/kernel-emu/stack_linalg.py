#!/usr/bin/env python3
"""Run xp's stack linear-algebra (linalg/stack.cu) CUDA kernels on the host, under the block emulator in emu.h (a std::thread per
CUDA thread, barriers for __syncthreads and the warp shuffles), against NumPy/SciPy: a check of
the kernels' logic that needs no GPU. Slow (every barrier is a futex): small sizes by default.

    python3 scripts/kernel-emu/stack_linalg.py          # needs g++, numpy, scipy
"""
import os, subprocess, sys, tempfile
HERE=os.path.dirname(os.path.abspath(__file__))
OUT=os.path.join(tempfile.gettempdir(),'xp-kernel-emu')
os.makedirs(OUT,exist_ok=True)
src_dir=os.path.join(HERE,'..','..','crates','cuda','src')+'/'
prelude=open(src_dir+'runtime/prelude.cu').read()
def build(src_file, wrappers, tag):
    src=open(src_dir+src_file).read()
    src=src.replace('extern __shared__ cd smem_[];','')
    for d,(t,r,eps,rmin,cplx) in {'f32':('float','float','1.1920929e-07f','1.17549435e-38f',0),'f64':('double','double','2.220446049250313e-16','2.2250738585072014e-308',0),
                       'c64':('cf','float','1.1920929e-07f','1.17549435e-38f',1),'c128':('cd','double','2.220446049250313e-16','2.2250738585072014e-308',1)}.items():
        code='#include "emu.h"\n'+prelude+f"\ntypedef {t} T;\ntypedef {r} R;\n#define CPLX {cplx}\n#define EPS (({r}){eps})\n#define RMIN (({r}){rmin})\nalignas(16) cd smem_[16384];\n"+src+"\nEMU_GLOBALS\n"+wrappers
        open(f'{OUT}/{tag}_{d}.cpp','w').write(code)
        r=subprocess.run(['g++','-std=c++17','-O1','-mfma','-ffp-contract=fast','-fPIC','-shared','-w','-pthread','-I'+HERE,f'{OUT}/{tag}_{d}.cpp','-o',f'{OUT}/{tag}_{d}.so'],capture_output=True,text=True)
        if r.returncode: print(r.stderr[:3000]); sys.exit(1)
    print('built',tag)
W='''
extern "C" void run_svd(const T* a, i64 ars, i64 acs, i64 abs_, int m, int n, T* u, R* s, T* vh, int* info, i64 count, int vectors, int full, int threads, int grid) {
  const int g = std::min(32, std::max(1, (int)pow(2, ceil(log2((double)((std::max(m, n) + 7) / 8))))));
  launch(grid, std::min(1024, std::max(32, (((std::min(m, n) + 1) / 2 * g + 31) / 32) * 32)), [=] { xp_svd_jacobi(a, ars, acs, abs_, m, n, u, s, vh, info, count, vectors, full, g); }); }
extern "C" void run_eigh(const T* a, i64 ars, i64 acs, i64 abs_, int n, int lower, R* w, T* v, int* info, i64 count, int vectors, int threads, int grid) {
  launch(grid, threads, [=] { xp_eigh_jacobi(a, ars, acs, abs_, n, lower, w, v, info, count, vectors); }); }
extern "C" void run_chol(const T* a, i64 ars, i64 acs, i64 abs_, int n, int lower, T* out, int* info, i64 count, int threads, int grid) {
  launch(grid, threads, [=] { xp_cholesky(a, ars, acs, abs_, n, lower, out, info, count); }); }
extern "C" void run_cholw(const T* a, i64 ars, i64 acs, i64 abs_, int n, int lower, T* out, int* info, i64 count, int grid) {
  launch(grid, 128, [=] { xp_cholesky_warp(a, ars, acs, abs_, n, lower, out, info, count); }); }
extern "C" void run_evt(const T* a, i64 ars, i64 acs, i64 abs_, int n, int lower, R* w, int* info, i64 count) {
  launch(count, 32 * std::min(8, std::max(1, n / 4)), [=] { xp_eigvalsh_tridiag(a, ars, acs, abs_, n, lower, w, info, count); }); }
extern "C" void run_qr(const T* a, i64 ars, i64 acs, i64 abs_, int m, int n, int mode, T* q, T* r, i64 count, int threads, int grid) {
  launch(grid, threads, [=] { xp_qr_house(a, ars, acs, abs_, m, n, mode, q, r, count); }); }
'''
build('linalg/stack.cu', W, 'la')

# ---- the checks
import ctypes as C
import numpy as np
rng=np.random.default_rng(5)
DT={'f32':np.float32,'f64':np.float64,'c64':np.complex64,'c128':np.complex128}
RT={'f32':np.float32,'f64':np.float64,'c64':np.float32,'c128':np.float64}
libs={d:C.CDLL(f'{OUT}/la_{d}.so') for d in DT}
P=lambda a: a.ctypes.data_as(C.c_void_p) if a is not None else None
I64=C.c_longlong
def r32(x): return ((x+31)//32)*32
def rnd(shape,d):
    x=rng.uniform(-1,1,shape)
    if np.iscomplexobj(np.zeros(1,DT[d])): x=x+1j*rng.uniform(-1,1,shape)
    return x.astype(DT[d])
def svd(a,d,vectors,full):
    cnt,m,n=a.shape; r,c=max(m,n),min(m,n)
    ucols,vrows=(m,n) if full else (c,c)
    s=np.zeros((cnt,c),RT[d]); u=np.zeros((cnt,m,ucols),DT[d]) if vectors else None; vh=np.zeros((cnt,vrows,n),DT[d]) if vectors else None
    info=np.zeros(cnt,np.int32)
    pairs=max(c+(c&1),2)//2
    it=a.itemsize
    libs[d].run_svd(P(a),I64(a.strides[1]//it),I64(a.strides[2]//it),I64(a.strides[0]//it),m,n,P(u),P(s),P(vh),P(info),I64(cnt),int(vectors),int(full),32*min(pairs,32),cnt)
    return u,s,vh,info
def eigh(a,d,lower,vectors):
    cnt,n,_=a.shape; np_=max(n+(n&1),2)//2
    w=np.zeros((cnt,n),RT[d]); v=np.zeros((cnt,n,n),DT[d]) if vectors else None; info=np.zeros(cnt,np.int32); it=a.itemsize
    if not vectors and n<=64:
        libs[d].run_evt(P(a),I64(a.strides[1]//it),I64(a.strides[2]//it),I64(a.strides[0]//it),n,int(lower),P(w),P(info),I64(cnt))
        return w,v,info
    libs[d].run_eigh(P(a),I64(a.strides[1]//it),I64(a.strides[2]//it),I64(a.strides[0]//it),n,int(lower),P(w),P(v),P(info),I64(cnt),int(vectors),min(max(r32(n*np_),32),1024),cnt)
    return w,v,info
def chol(a,d,lower):
    cnt,n,_=a.shape; out=np.zeros_like(a); info=np.zeros(cnt,np.int32); it=a.itemsize
    if n<=32: libs[d].run_cholw(P(a),I64(a.strides[1]//it),I64(a.strides[2]//it),I64(a.strides[0]//it),n,int(lower),P(out),P(info),I64(cnt),(cnt+3)//4)
    else: libs[d].run_chol(P(a),I64(a.strides[1]//it),I64(a.strides[2]//it),I64(a.strides[0]//it),n,int(lower),P(out),P(info),I64(cnt),min(max(r32(min(n*n,256)),32),1024),cnt)
    return out,info
def qr(a,d,mode):
    cnt,m,n=a.shape; k=min(m,n); qc,rr=(m,m) if mode==1 else (k,k)
    q=np.zeros((cnt,m,qc),DT[d]) if mode!=2 else None; r=np.zeros((cnt,rr,n),DT[d]); it=a.itemsize
    libs[d].run_qr(P(a),I64(a.strides[1]//it),I64(a.strides[2]//it),I64(a.strides[0]//it),m,n,mode,P(q),P(r),I64(cnt),32*min(max(n,1),16),cnt)
    return q,r
bad=0
def chk(name,ok,msg=''):
    global bad
    if not ok: bad+=1; print('FAIL',name,msg)
import os
sizes=[tuple(map(int,s.split("x"))) for s in os.environ.get("SIZES","1x1,2x2,3x3,5x3,3x5,8x8").split(",")]
DTS=os.environ.get("DTS","f32,f64,c64,c128").split(",")
for d in DTS:
    eps=np.finfo(RT[d]).eps
    for (m,n) in sizes:
        a=rnd((2,m,n),d)
        # rank-deficient third member
        b=rnd((1,m,1),d)@rnd((1,1,n),d)
        a=np.concatenate([a,b])
        at=np.ascontiguousarray(a.transpose(0,2,1)).transpose(0,2,1)  # F-ordered view
        for full in [False,True]:
            u,s,vh,info=svd(at,d,True,full)
            sref=np.linalg.svd(a.astype(np.complex128),compute_uv=False)
            k=min(m,n)
            tol=50*eps*max(m,n)
            chk(f'svd s {d} {m}x{n} full={full}',np.allclose(s,sref,atol=tol*sref.max(),rtol=0) and (info==0).all(),f'{np.abs(s-sref).max()} info={info}')
            rec=(u[:,:,:k]*s[:,None,:])@vh[:,:k,:]
            chk(f'svd rec {d} {m}x{n} {full}',np.abs(rec-a).max()<=tol*max(1,np.abs(a).max()),np.abs(rec-a).max())
            for x,nm in [(u,'U'),(vh.conj().transpose(0,2,1),'V')]:
                g=x.conj().transpose(0,2,1)@x
                chk(f'svd orth{nm} {d} {m}x{n} {full}',np.abs(g-np.eye(g.shape[-1])).max()<=tol,np.abs(g-np.eye(g.shape[-1])).max())
        _,s2,_,info=svd(a,d,False,False)
        chk(f'svdvals {d} {m}x{n}',np.allclose(s2,sref,atol=50*eps*max(m,n)*sref.max(),rtol=0))
        for mode in [0,1,2]:
            q,r=qr(at,d,mode)
            qr_,rr_=np.linalg.qr(a.astype(np.complex128) if np.iscomplexobj(a) else a.astype(np.float64),mode=['reduced','complete','r'][mode]) if mode!=2 else (None,np.linalg.qr(a.astype(np.float64 if not np.iscomplexobj(a) else np.complex128),mode='r'))
            if mode==2: rr_=rr_
            chk(f'qr R {d} {m}x{n} mode{mode}',np.abs(r[:2]-rr_[:2]).max()<=tol*4,np.abs(r[:2]-rr_[:2]).max())
            if q is not None:
                chk(f'qr Q {d} {m}x{n} mode{mode}',np.abs(q[:2]-qr_[:2]).max()<=tol*4,np.abs(q[:2]-qr_[:2]).max())
                chk(f'qr QR=A {d} {m}x{n} mode{mode}',np.abs(q@r-a).max()<=tol*4,np.abs(q@r-a).max())
                g=q.conj().transpose(0,2,1)@q
                chk(f'qr orth {d} {m}x{n} mode{mode}',np.abs(g-np.eye(g.shape[-1])).max()<=tol*4,np.abs(g-np.eye(g.shape[-1])).max())
        if m==n:
            h=a@a.conj().transpose(0,2,1)+n*np.eye(n)
            h=h.astype(DT[d])
            for lower in [True,False]:
                g=h.copy()
                if n>1:
                    iu=np.triu_indices(n,1) if lower else np.tril_indices(n,-1)
                    g[(slice(None),*iu)]=7
                w,v,info=eigh(g,d,lower,True)
                wref=np.linalg.eigvalsh(h.astype(np.complex128))
                chk(f'eigh w {d} {n} {lower}',np.allclose(w,wref,atol=50*n*eps*np.abs(wref).max(),rtol=0) and (info==0).all(),f'{np.abs(w-wref).max()} {info}')
                res=h@v-v*w[:,None,:]
                chk(f'eigh res {d} {n}',np.abs(res).max()<=100*n*eps*np.abs(wref).max(),np.abs(res).max())
                w2,_,_=eigh(g,d,lower,False)
                chk(f'eigvalsh {d} {n}',np.allclose(w2,wref,atol=50*n*eps*np.abs(wref).max(),rtol=0))
                L,info=chol(g,d,lower)
                Lr=np.linalg.cholesky(h.astype(np.complex128), upper=not lower)
                chk(f'chol {d} {n} {lower}',np.allclose(L,Lr,atol=100*n*eps*np.abs(Lr).max(),rtol=0) and (info==0).all(),f'{np.abs(L-Lr).max()} {info}')
            ind=(a+a.conj().transpose(0,2,1)).astype(DT[d])  # indefinite, with a rank-one member
            w3,_,info=eigh(ind,d,True,False)
            wr=np.linalg.eigvalsh(ind.astype(np.complex128))
            chk(f'eigvalsh indefinite {d} {n}',np.allclose(w3,wr,atol=50*n*eps*max(np.abs(wr).max(),1e-30),rtol=0) and (info==0).all(),f'{np.abs(w3-wr).max()} {info}')
            npd=h.copy(); npd[1]=-np.eye(n)
            L,info=chol(npd,d,True)
            chk(f'chol npd {d} {n}',list(info)==[0,1,0],info)
print('bad',bad)
