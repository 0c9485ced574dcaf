// Writes IPC files of every sample array into the corpus directory given as the argument.

#include "bowstring/interchange/ipc.h"
#include "ipc_seeds.h"

int main(int argc, char** argv) {
  return bowstring::fuzz::write_ipc_seeds(
      argc, argv, [](const bowstring::Table& table, const bowstring::ipc::WriteOptions& options) {
        return bowstring::ipc::write_file(table, options);
      });
}
