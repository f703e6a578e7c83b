// Does not compile: an5dc-emucc must fail and print the compiler command.
__global__ void broken(float* a) { a[threadIdx.x] = undeclared_variable; }
int main() { return 0; }
