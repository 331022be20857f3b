import os, sys
t0 = float(sys.argv[1])
print(f"{max(os.path.getmtime('/tmp/o.json'), os.path.getmtime('/tmp/o.err')) - t0:.3f}")
