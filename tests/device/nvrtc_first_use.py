# What NVRTC's first compile in a process costs over later ones: for each of RUNS fresh processes,
# a program compiled first (cold process) and then again, with and without a tiny compile before:
#   python3 tests/device/nvrtc_first_use.py KERNELS_DIR PROGRAM.cu RUNS
import ctypes, os, subprocess, sys, time

def child(kernels, path, warm):
    lib = None
    for cand in [os.environ.get("NVRTC_LIB", ""), "/usr/local/cuda/lib64/libnvrtc.so", "libnvrtc.so.13"]:
        try:
            if cand: lib = ctypes.CDLL(cand); break
        except OSError: pass
    def comp(src):
        prog = ctypes.c_void_p()
        lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"m.cu", 0, None, None)
        o = [x.encode() for x in ["-I" + kernels, "-std=c++17", "-default-device", "-arch=sm_90", "--split-compile=0", "--no-cache"]]
        t = time.time(); r = lib.nvrtcCompileProgram(prog, len(o), (ctypes.c_char_p * len(o))(*o)); dt = time.time() - t
        assert r == 0, r
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
        return dt
    text = open(path).read()
    tiny = comp('extern "C" __global__ void k(double* x) { x[0] = sin(x[1]); }') if warm else 0.0
    print(f"{tiny:.3f} {comp(text):.3f} {comp(text):.3f}")

if len(sys.argv) == 5:
    child(sys.argv[1], sys.argv[2], sys.argv[4] == "warm")
    sys.exit(0)
kernels, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
for warm in ["cold", "warm", "cold", "warm"] * (runs // 2):
    out = subprocess.run([sys.executable, __file__, kernels, path, "x", warm], capture_output=True, text=True).stdout.split()
    print(f"{warm}: tiny {out[0]} s, first {out[1]} s, second {out[2]} s")
