/* startup_floor: a program that does nothing (`true`). Built static and
 * dynamic (libc only, and libc + libmnl) by bench/startup_vm.sh, it is the
 * floor of a start in the VM: what exec, the kernel's process set-up, the
 * dynamic loader and each shared library cost before any of our code runs. */
int main(void) {
  return 0;
}
