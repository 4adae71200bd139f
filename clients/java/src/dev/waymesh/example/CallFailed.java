package dev.waymesh.example;

import io.grpc.StatusRuntimeException;
import java.util.function.Supplier;

/** A failed RPC and which method it was, for the error report. */
final class CallFailed extends RuntimeException {
  final String method;
  final StatusRuntimeException cause;

  CallFailed(String method, StatusRuntimeException cause) {
    super(method, cause);
    this.method = method;
    this.cause = cause;
  }

  /** Runs one RPC; its failure becomes a CallFailed naming the method. */
  static <T> T call(String method, Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw new CallFailed(method, e);
    }
  }
}
