"""Deletes one statement from a generated .cu file, for the mutation tests.

usage: mutate.py wait|sync IN.cu OUT.cu

Removes the first __pipeline_wait_prior(...) (wait) or __syncthreads() (sync)
after the file's first `for (;;)` (or `for (int x = `, in a file of several
fields), the streaming loop of its first kernel, and
prints the kernel and the removed line so that the test can check where the
mutation happened. Fails when there is none.
"""
import re
import sys

STATEMENTS = {"wait": re.compile(r"__pipeline_wait_prior\([^;]*\);[^\n]*"),
              "sync": re.compile(r"__syncthreads\(\);")}


def main():
    what, src, dst = sys.argv[1:4]
    text = open(src).read()
    loop = re.search(r"for \(;;\)|for \(int x = ", text).start()
    head = re.findall(r"__global__ void [^\n]*", text[:loop])[-1]
    kernel = [n for n in re.findall(r"(\w+)\(", head) if n != "__launch_bounds__"][0]
    found = STATEMENTS[what].search(text, loop)
    if not found:
        sys.exit("mutate.py: no %s statement after the first streaming loop" % what)
    line = text.count("\n", 0, found.start()) + 1
    open(dst, "w").write(text[:found.start()] + "/* deleted by mutate.py */" + text[found.end():])
    print("mutate.py: deleted %s in %s at line %d" % (found.group(0).split(";")[0] + ";", kernel, line))


if __name__ == "__main__":
    main()
