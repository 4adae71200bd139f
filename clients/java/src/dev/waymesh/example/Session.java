package dev.waymesh.example;

import io.grpc.CallCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.AbstractStub;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The example's connection to the service: one long-lived balanced channel, how every call on it
 * gets its deadline and credentials, and channels to single replicas for resyncs.
 */
final class Session implements AutoCloseable {
  final ManagedChannel channel;
  private final Channels channels;
  private final long deadlineMs;
  private final CallCredentials auth; // null without a token
  private final Map<SocketAddress, ManagedChannel> replicas = new HashMap<>();

  Session(Channels channels, String target, long deadlineMs, String token) {
    this.channels = channels;
    this.channel = channels.balanced(target);
    this.deadlineMs = deadlineMs;
    this.auth = token.isEmpty() ? null : new BearerToken(token);
  }

  /**
   * The stub for one call: a fresh deadline (retries included), because a game backend must
   * never wait on a slow pod longer than its own budget, and the bearer token.
   */
  <S extends AbstractStub<S>> S call(S stub) {
    return stub.withCallCredentials(auth).withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS);
  }

  /**
   * The stub for a long-lived stream (a crowd session): the bearer token but no deadline, since
   * the stream lives as long as the caller wants it; whoever reads it bounds each wait for an
   * answer by {@link #deadlineMs()} instead.
   */
  <S extends AbstractStub<S>> S stream(S stub) {
    return stub.withCallCredentials(auth);
  }

  /** The deadline of one call, in milliseconds. */
  long deadlineMs() {
    return deadlineMs;
  }

  /**
   * A channel to the one replica at `address` (the peer of an earlier call), opened once. The
   * balanced channel sends each call to the next replica, so a resync sent on it would reach
   * another replica than the one that asked for it.
   */
  ManagedChannel replica(SocketAddress address) {
    if (!(address instanceof InetSocketAddress inet)) {
      throw new IllegalStateException("the replica's address is unknown: " + address);
    }
    return replicas.computeIfAbsent(address, a -> channels.replica(inet, channel.authority()));
  }

  @Override
  public void close() throws InterruptedException {
    for (ManagedChannel c : replicas.values()) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
