// Cache-line hints for lines that move between cores (software prefetch; no effect on
// correctness).
#pragma once

namespace shmpi {

// Asks for a line this core will write soon in exclusive state, so that the write does
// not wait for other cores' copies to be invalidated. PREFETCHW (AMD; Intel since
// Broadwell, a no-op hint before) is emitted directly: without -mprfchw GCC turns a
// write prefetch into a read one, which leaves the invalidation to the write.
inline void prefetch_for_write(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetchw %0" ::"m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1, 3);
#endif
}

// Asks for a line this core will read soon.
inline void prefetch_for_read(const void* p) { __builtin_prefetch(p, 0, 3); }

}  // namespace shmpi
