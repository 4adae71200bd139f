package dev.waymesh.example;

import com.google.gson.Gson;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.TlsChannelCredentials;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Opens the example's channels with the transport security of the --tls-* flags and the service
 * config: the balanced channel every call goes through, and channels to one replica for resyncs.
 */
final class Channels {
  private final ChannelCredentials credentials;
  private final Map<String, ?> serviceConfig;
  private final String serverName;

  Channels(TlsFlags tls, String serviceConfigFile) throws BadFlag {
    credentials = credentials(tls);
    serviceConfig = serviceConfig(serviceConfigFile);
    serverName = tls.serverName();
  }

  /** The --tls-* flags: --tls-ca turns TLS on, --tls-cert/--tls-key add a client certificate. */
  record TlsFlags(String ca, String cert, String key, String serverName) {}

  /** Thrown for flags that name unusable files or do not go together. */
  static final class BadFlag extends Exception {
    BadFlag(String message) {
      super(message);
    }
  }

  /** The channel that balances calls round-robin over every address the target resolves to. */
  ManagedChannel balanced(String target) {
    ManagedChannelBuilder<?> builder = Grpc.newChannelBuilder(target, credentials);
    if (!serverName.isEmpty()) {
      builder.overrideAuthority(serverName);
    }
    return configure(builder);
  }

  /**
   * A channel to the one replica at `address` (the peer of an earlier call), under the balanced
   * channel's `authority`: TLS checks the name the certificate was issued for, not the pod IP.
   */
  ManagedChannel replica(InetSocketAddress address, String authority) {
    return configure(
        Grpc.newChannelBuilderForAddress(
                address.getAddress().getHostAddress(), address.getPort(), credentials)
            .overrideAuthority(authority));
  }

  private ManagedChannel configure(ManagedChannelBuilder<?> builder) {
    // The shipped config (round_robin, retry policy) is the one in force, not a DNS TXT
    // record; grpc-java honours the server's grpc-retry-pushback-ms trailer when it retries.
    return builder
        .defaultServiceConfig(serviceConfig)
        .disableServiceConfigLookUp()
        .enableRetry()
        .build();
  }

  private static ChannelCredentials credentials(TlsFlags tls) throws BadFlag {
    if (tls.ca().isEmpty()) {
      if (!tls.cert().isEmpty() || !tls.key().isEmpty() || !tls.serverName().isEmpty()) {
        throw new BadFlag("--tls-cert, --tls-key and --tls-server-name need --tls-ca");
      }
      return InsecureChannelCredentials.create();
    }
    TlsChannelCredentials.Builder creds = TlsChannelCredentials.newBuilder();
    try {
      creds.trustManager(new File(tls.ca()));
    } catch (IOException | RuntimeException e) {
      throw new BadFlag("--tls-ca: " + tls.ca() + ": " + e.getMessage());
    }
    if (!tls.cert().isEmpty() || !tls.key().isEmpty()) {
      if (tls.cert().isEmpty() || tls.key().isEmpty()) {
        throw new BadFlag("--tls-cert and --tls-key go together");
      }
      try {
        // The key must be PKCS#8 PEM ("BEGIN PRIVATE KEY"), as openssl genpkey writes it.
        creds.keyManager(new File(tls.cert()), new File(tls.key()));
      } catch (IOException | RuntimeException e) {
        throw new BadFlag("--tls-cert/--tls-key: " + e.getMessage());
      }
    }
    return creds.build();
  }

  /** The service config JSON as the maps and lists (numbers as Double) gRPC expects. */
  private static Map<String, ?> serviceConfig(String file) throws BadFlag {
    if (file.isEmpty()) {
      throw new BadFlag("--service-config: no file given (clients/service_config.json)");
    }
    try (Reader in = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
      Map<?, ?> config = new Gson().fromJson(in, Map.class);
      if (config == null) {
        throw new BadFlag("--service-config: " + file + " is empty");
      }
      @SuppressWarnings("unchecked")
      Map<String, ?> typed = (Map<String, ?>) config;
      return typed;
    } catch (IOException | RuntimeException e) {
      throw new BadFlag("--service-config: " + file + ": " + e.getMessage());
    }
  }
}
