package dev.waymesh.example;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.net.SocketAddress;

/**
 * Records the address of the replica that answered a call, also when it refused it (grpc-java's
 * counterpart of grpc-go's grpc.Peer call option).
 */
final class AnsweredBy implements ClientInterceptor {
  private volatile SocketAddress address;

  /** The replica that answered the last call through this interceptor (null: none reached). */
  SocketAddress address() {
    return address;
  }

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(
      MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
    ClientCall<ReqT, RespT> call = next.newCall(method, options);
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      public void start(Listener<RespT> listener, Metadata headers) {
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onClose(Status status, Metadata trailers) {
                // Before the listener completes the call, so the caller sees it afterwards.
                address = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
                super.onClose(status, trailers);
              }
            },
            headers);
      }
    };
  }
}
