# Runs a command, prints its output (stderr merged into stdout) and then
# "exit: N", so that a lit test can check the exact exit code.
import subprocess
import sys

result = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT)
sys.stdout.write(result.stdout.decode())
print("exit: %d" % result.returncode)
