# Runs a command and prints its exit code, wall time and peak resident memory (of the command and
# its children), then the tail of its stderr; exits with the command's code. For the device rounds
# (the server has no GNU time):   python3 tests/device/measure.py CMD [ARGS...]
import resource, subprocess, sys, time

start = time.time()
run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
wall = time.time() - start
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"exit {run.returncode}  wall {wall:.2f} s  peak RSS {rss:.0f} MB  {' '.join(sys.argv[1:])}")
print(run.stderr[-600:])
sys.exit(run.returncode)
