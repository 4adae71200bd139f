#pragma once
// How a crowd tick spreads its work: the caller hands Crowd::Step something that runs N
// independent chunks (the server's worker pool, a plain loop in the CLI). Core starts no
// threads itself. Each chunk writes only its own agents' state, and everything shared is
// merged afterwards in a fixed order, so a tick gives the same bits on any worker count.

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace waymesh::crowd {

class ChunkRunner {
 public:
  virtual ~ChunkRunner() = default;

  // How many workers may run chunks at once; Run passes worker indices below this.
  virtual uint32_t workers() const = 0;
  // Calls work(chunk, worker) once for every chunk in [0, chunks), on any threads but never
  // two chunks at once with the same worker index, and returns when every call has returned.
  virtual void Run(uint32_t chunks,
                   absl::FunctionRef<void(uint32_t chunk, uint32_t worker)> work) = 0;
};

// Runs the chunks one after another on the calling thread.
class SerialChunkRunner final : public ChunkRunner {
 public:
  uint32_t workers() const override { return 1; }
  void Run(uint32_t chunks,
           absl::FunctionRef<void(uint32_t chunk, uint32_t worker)> work) override {
    for (uint32_t c = 0; c < chunks; ++c) work(c, 0);
  }
};

}  // namespace waymesh::crowd
