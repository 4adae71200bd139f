package dev.waymesh.example;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import java.util.concurrent.Executor;

/** Sends "authorization: Bearer <token>", what the server's --auth-token expects. */
final class BearerToken extends CallCredentials {
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private final String token;

  BearerToken(String token) {
    this.token = token;
  }

  @Override
  public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, "Bearer " + token);
    applier.apply(headers);
  }

  @Override
  public void thisUsesUnstableApi() {}
}
