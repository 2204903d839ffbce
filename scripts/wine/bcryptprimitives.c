/* A stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks and Rust's standard library
 * (1.78+) loads for ProcessPrng. Built by scripts/wine/build-stub.sh with mingw into the cache;
 * used only by the Wine test runner, never shipped. Same contract: fill the buffer, return TRUE. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG part = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!RtlGenRandom(data, part)) return FALSE;
    data += part;
    len -= part;
  }
  return TRUE;
}
