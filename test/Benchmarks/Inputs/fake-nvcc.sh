#!/bin/sh
# Stands in for nvcc in the runner's tests: the "executable" it writes logs
# its arguments and AN5D_TIMING to EXE.log and prints a timing line; the
# build logs its own arguments to EXE.nvcc and prints a ptxas register line
# as nvcc -Xptxas -v does.
all="$*"
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out=$2; shift; fi
  shift
done
cat > "$out" <<EOS
#!/bin/sh
echo "args \$* timing \$AN5D_TIMING" >> "$out.log"
echo "an5d timing: 10 ms"
EOS
chmod +x "$out"
echo "nvcc $all" >> "$out.nvcc"
echo "ptxas info    : Used 40 registers" >&2
