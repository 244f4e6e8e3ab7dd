# NVRTC phase times (front end, NVVM optimizer, PTX translation) of study programs that
# bench_cuda_compile dumped (BENCH_COMPILE_DUMP), in one warmed-up process, as written and with the
# kernel headers first under NVRTC's automatic precompiled header (--pch, created by one compile first):
#   python3 tests/device/nvrtc_phases.py KERNELS_DIR RUNS FILE...
import ctypes, ctypes.util, glob, os, statistics, sys, time
lib = None
for cand in [os.environ.get("NVRTC_LIB", ""), "/usr/local/cuda/lib64/libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]:
    try:
        if cand: lib = ctypes.CDLL(cand); break
    except OSError: pass
root = sys.argv[1].rstrip("/") + "/"
runs = int(sys.argv[2])
names, srcs = [], []
for p in glob.glob(root + "bif/**/*", recursive=True):
    if os.path.isfile(p) and (p.endswith(".h") or p.endswith(".cuh")):
        names.append(p[len(root):].encode()); srcs.append(open(p).read().encode())
N = len(names)
lib.nvrtcSetPCHHeapSize(ctypes.c_size_t(1 << 28))
def compile_once(src, opts):
    prog = ctypes.c_void_p()
    lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"bifscope_module.cu", N,
                           (ctypes.c_char_p * N)(*srcs), (ctypes.c_char_p * N)(*names))
    tf = "/tmp/nvrtc-phases.csv"
    if os.path.exists(tf): os.remove(tf)
    o = [x.encode() for x in ["-std=c++17", "-default-device", "-arch=sm_90", "--split-compile=0", "--time=" + tf] + opts]
    t = time.time(); r = lib.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o)); dt = time.time() - t
    assert r == 0, r
    ph = {}
    for line in open(tf).read().splitlines()[1:]:
        f = [x.strip() for x in line.split(",")]
        ph[f[1]] = float(f[2]) / 1000
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return dt, ph
def pch_order(text):
    # switches and entry defines, then the kernel headers, then the model, then the instantiation
    parts = text.split('#line 1 "')
    body = {p.split('"\n', 1)[0]: p.split('"\n', 1)[1] for p in parts[1:]}
    entry = body["entry"].splitlines()
    defines = [l for l in entry if l.startswith("#define")]
    includes = [l for l in entry if l.startswith("#include")]
    rest = [l for l in entry if not l.startswith("#define") and not l.startswith("#include")]
    return body.get("switches", "") + "\n".join(defines + includes) + "\n" + body["model"] + "\n".join(rest) + "\n"
compile_once(open(sys.argv[3]).read(), [])  # NVRTC's own first-use costs out of the figures
for path in sys.argv[3:]:
    text = open(path).read()
    variants = [("base", text, []),
                ("pch", pch_order(text), ["--pch"])]
    for label, src, opts in variants:
        if "--pch" in opts: compile_once(src, opts)  # creates the header PCH, as a warm-up would
        rows = [compile_once(src, opts) for _ in range(runs)]
        walls = [r[0] for r in rows]
        phases = {k: statistics.median(r[1].get(k, 0) for r in rows) for k in rows[0][1]}
        print(f"{os.path.basename(path):34s} {label:10s} wall min {min(walls):.3f} median {statistics.median(walls):.3f} s | "
              + " ".join(f"{k.replace('CUDA C++ ', '').replace('NVVM ', '')} {v:.3f}" for k, v in phases.items()))
