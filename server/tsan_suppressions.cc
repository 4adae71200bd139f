// ThreadSanitizer suppressions for every binary linking gRPC (waymesh-server, waymesh-client,
// server_tests); compiled in -fsanitize=thread builds only. Debian's gRPC, abseil, OpenSSL and
// cpp-httplib are built without TSan, so the synchronization inside them (absl::Mutex, gRPC's
// locks and atomics) is invisible and TSan reports their internal handoffs as races. Reports
// whose stacks pass through those libraries are suppressed; races entirely in Waymesh code
// (worker pool, service, registry, query core) are still reported.

#if defined(__SANITIZE_THREAD__)
extern "C" const char* __tsan_default_suppressions() {
  return "race:libgrpc.so\n"
         "race:libgrpc++.so\n"
         "race:libgrpc++_reflection.so\n"
         "race:libgpr.so\n"
         "race:libabsl_\n"
         "race:libprotobuf.so\n"
         // grpc++'s call op sets are header code compiled into our binaries: a gRPC thread
         // fills in a call's status and the caller reads it once the completion queue hands the
         // call back, synchronised inside libgrpc where TSan cannot see it.
         "race:grpcpp/impl/call_op_set.h\n"
         // OpenSSL (TLS tests): its locks are as invisible as gRPC's.
         "race:libcrypto.so\n"
         "race:libssl.so\n"
         // cpp-httplib (the /metrics endpoint) is as uninstrumented: a fresh-clone TSan run
         // reported two of its pool workers touching one heap block inside libcpp-httplib,
         // and halt_on_error stopped the server mid-test.
         "race:libcpp-httplib.so\n"
         "called_from_lib:libgrpc.so\n"
         "called_from_lib:libgrpc++.so\n"
         "called_from_lib:libgpr.so\n"
         // Threads gRPC starts itself (grpc_core::Thread in libgpr): gRPC alone decides when
         // they are joined, and a finished one not yet joined when a test binary exits is
         // reported as a leak (seen once in ServerTlsTest under a loaded ctest -j2).
         "thread:libgpr.so\n"
         "deadlock:libabsl_\n"
         "deadlock:libgrpc.so\n";
}
#endif
