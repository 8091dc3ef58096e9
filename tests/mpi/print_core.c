/* print_core: each rank prints the CPUs it may run on (Linux sched_getaffinity), then
 * waits until the file named by argv[1] exists (or 30 s). Used to show that a second job
 * started while the first runs is given other cores. Usage: print_core RELEASE_FILE */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  CHECK(argc == 2, "usage: print_core RELEASE_FILE");
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  cpu_set_t set;
  CPU_ZERO(&set);
  CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity failed");
  printf("rank %d cpus", rank);
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) printf(" %d", c);
  }
  printf("\n");
  fflush(stdout);
  for (int i = 0; i < 3000 && access(argv[1], F_OK) != 0; ++i) usleep(10000);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
