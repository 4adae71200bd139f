package dev.waymesh.example;

import dev.waymesh.v1.FindPathRequest;
import dev.waymesh.v1.FindPathResponse;
import dev.waymesh.v1.GetMapInfoRequest;
import dev.waymesh.v1.MapInfo;
import dev.waymesh.v1.NavigationServiceGrpc;
import dev.waymesh.v1.ValidateMoveRequest;
import dev.waymesh.v1.ValidateMoveResponse;
import dev.waymesh.v1.Vec3;
import io.grpc.CallCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A small Waymesh client: checks the server's health, describes a map, asks for a path and
 * validates a move, each call under its own deadline, and prints one line per answer (the same
 * lines as the Go example). The channel balances calls round-robin over every address the
 * target resolves to, which is how a backend should talk to a Kubernetes headless Service, and
 * retries overloaded or unavailable calls as clients/service_config.json says.
 *
 * <p>Flags: --target=dns:///host:port --map=ID [--agent-type=T] [--start=x,y,z --end=x,y,z]
 * [--move-to=x,y,z --max-move=M] [--deadline-ms=2000] [--token=T, default $WAYMESH_AUTH_TOKEN]
 * [--tls-ca=PEM [--tls-cert=PEM --tls-key=PEM] [--tls-server-name=NAME]] [--service-config=JSON].
 * Exit status: 0 when every call succeeded, 1 for bad flags, 2 when a call failed ("error:
 * method: CODE: message" and a line per error detail, e.g. "error-info: reason=MAP_NOT_FOUND
 * ...").
 */
public final class NavigationExample {
  /** The name the server reports the navigation service's health under. */
  private static final String HEALTH_SERVICE = "waymesh.v1.NavigationService";

  private NavigationExample() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> flags = parseFlags(args);
    String target =
        flags.getOrDefault("target", "dns:///waymesh-grpc.waymesh.svc.cluster.local:50051");
    String mapId = flags.getOrDefault("map", "");
    String agentType = flags.getOrDefault("agent-type", "");
    long deadlineMs = parseLong("deadline-ms", flags.getOrDefault("deadline-ms", "2000"));
    String token =
        flags.getOrDefault("token", System.getenv().getOrDefault("WAYMESH_AUTH_TOKEN", ""));
    Vec3 start = parseVec(flags.get("start"));
    Vec3 end = parseVec(flags.get("end"));
    Vec3 moveTo = parseVec(flags.get("move-to"));
    float maxMove = parseFloat("max-move", flags.getOrDefault("max-move", "0"));
    if (mapId.isEmpty() || ((end != null || moveTo != null) && start == null)) {
      usage("--map is required; --end and --move-to need --start");
    }
    Channels.TlsFlags tls =
        new Channels.TlsFlags(
            flags.getOrDefault("tls-ca", ""),
            flags.getOrDefault("tls-cert", ""),
            flags.getOrDefault("tls-key", ""),
            flags.getOrDefault("tls-server-name", ""));
    String serviceConfig =
        flags.getOrDefault("service-config", System.getProperty("waymesh.serviceConfig", ""));

    ManagedChannel channel = null;
    try {
      channel = Channels.open(target, tls, serviceConfig);
    } catch (Channels.BadFlag e) {
      usage(e.getMessage());
    }
    int exit = 0;
    try {
      run(channel, token, deadlineMs, mapId, agentType, start, end, moveTo, maxMove);
    } catch (CallFailed e) {
      ErrorReport.lines(e.method, e.cause).forEach(System.out::println);
      exit = 2;
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.exit(exit);
  }

  private static void run(
      ManagedChannel channel,
      String token,
      long deadlineMs,
      String mapId,
      String agentType,
      Vec3 start,
      Vec3 end,
      Vec3 moveTo,
      float maxMove) {
    CallCredentials auth = token.isEmpty() ? null : new BearerToken(token);
    // Every call gets a fresh deadline (retries included): a game backend must never wait on a
    // slow pod longer than its own budget.
    HealthCheckResponse health =
        call(
            "Health.Check",
            () ->
                HealthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
                    .check(HealthCheckRequest.newBuilder().setService(HEALTH_SERVICE).build()));
    System.out.printf("health: %s%n", health.getStatus());

    NavigationServiceGrpc.NavigationServiceBlockingStub nav =
        NavigationServiceGrpc.newBlockingStub(channel).withCallCredentials(auth);
    GetMapInfoRequest infoRequest =
        GetMapInfoRequest.newBuilder().setMapId(mapId).setAgentType(agentType).build();
    MapInfo info =
        call(
                "GetMapInfo",
                () ->
                    nav.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
                        .getMapInfo(infoRequest))
            .getMap();
    System.out.printf(
        "map: %s version=%d polygons=%d tiles=%d islands=%d%n",
        info.getMapId(),
        info.getMapVersion(),
        info.getPolygons(),
        info.getTiles(),
        info.getIslands());

    if (end != null) {
      FindPathRequest request =
          FindPathRequest.newBuilder()
              .setMapId(mapId)
              .setAgentType(agentType)
              .setStart(start)
              .setEnd(end)
              .build();
      FindPathResponse path =
          call(
              "FindPath",
              () -> nav.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS).findPath(request));
      System.out.printf(
          Locale.ROOT,
          "path: %s waypoints=%d length=%.3f version=%d%n",
          path.getStatus(),
          path.getWaypointsCount(),
          path.getLength(),
          path.getMapVersion());
    }

    if (moveTo != null) {
      ValidateMoveRequest request =
          ValidateMoveRequest.newBuilder()
              .setMapId(mapId)
              .setAgentType(agentType)
              .setStart(start)
              .setEnd(moveTo)
              .setMaxDistance(maxMove)
              .build();
      ValidateMoveResponse move =
          call(
              "ValidateMove",
              () ->
                  nav.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS).validateMove(request));
      Vec3 r = move.getReached();
      System.out.printf(
          Locale.ROOT,
          "move: %s reason=%s distance=%.3f reached=%.3f,%.3f,%.3f version=%d%n",
          move.getVerdict(),
          move.getReason(),
          move.getDistance(),
          r.getX(),
          r.getY(),
          r.getZ(),
          move.getMapVersion());
    }
  }

  /** A failed RPC and which method it was, for the error report. */
  private static final class CallFailed extends RuntimeException {
    final String method;
    final StatusRuntimeException cause;

    CallFailed(String method, StatusRuntimeException cause) {
      super(method, cause);
      this.method = method;
      this.cause = cause;
    }
  }

  private static <T> T call(String method, Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw new CallFailed(method, e);
    }
  }

  /** Sends "authorization: Bearer <token>", what the server's --auth-token expects. */
  private static final class BearerToken extends CallCredentials {
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

  private static Map<String, String> parseFlags(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (!a.startsWith("--") || eq < 0) {
        usage("flags are --name=value, got " + a);
      }
      flags.put(a.substring(2, eq), a.substring(eq + 1));
    }
    return flags;
  }

  private static long parseLong(String flag, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      usage("--" + flag + ": not an integer: " + value);
      return 0;
    }
  }

  private static float parseFloat(String flag, String value) {
    try {
      return Float.parseFloat(value);
    } catch (NumberFormatException e) {
      usage("--" + flag + ": not a number: " + value);
      return 0;
    }
  }

  /** Reads "x,y,z"; null or empty is no position. */
  private static Vec3 parseVec(String s) {
    if (s == null || s.isEmpty()) {
      return null;
    }
    String[] p = s.split(",");
    if (p.length != 3) {
      usage("position " + s + ": want x,y,z");
    }
    try {
      return Vec3.newBuilder()
          .setX(Float.parseFloat(p[0].trim()))
          .setY(Float.parseFloat(p[1].trim()))
          .setZ(Float.parseFloat(p[2].trim()))
          .build();
    } catch (NumberFormatException e) {
      usage("position " + s + ": " + e.getMessage());
      return null;
    }
  }

  private static void usage(String why) {
    System.err.println("waymesh example: " + why);
    System.exit(1);
  }
}
