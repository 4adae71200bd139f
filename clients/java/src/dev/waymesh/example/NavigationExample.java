package dev.waymesh.example;

import dev.waymesh.v1.FindPathRequest;
import dev.waymesh.v1.FindPathResponse;
import dev.waymesh.v1.GetMapInfoRequest;
import dev.waymesh.v1.MapInfo;
import dev.waymesh.v1.NavigationGrpc;
import dev.waymesh.v1.ValidateMoveRequest;
import dev.waymesh.v1.ValidateMoveResponse;
import dev.waymesh.v1.Vec3;
import io.grpc.CallCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
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
 * target resolves to, which is how a backend should talk to a Kubernetes headless Service.
 *
 * <p>Flags: --target=dns:///host:port --map=ID [--from=x,y,z --to=x,y,z] [--move-to=x,y,z
 * --max-move=M] [--deadline-ms=2000] [--token=T]. Exit status: 0 when every call succeeded, 1
 * for bad flags, 2 when a call failed ("error: method: CODE: message").
 */
public final class NavigationExample {
  private NavigationExample() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> flags = parseFlags(args);
    String target =
        flags.getOrDefault("target", "dns:///waymesh-grpc.waymesh.svc.cluster.local:50051");
    String mapId = flags.getOrDefault("map", "");
    long deadlineMs = Long.parseLong(flags.getOrDefault("deadline-ms", "2000"));
    String token = flags.getOrDefault("token", System.getenv().getOrDefault("WAYMESH_AUTH_TOKEN", ""));
    Vec3 from = parseVec(flags.get("from"));
    Vec3 to = parseVec(flags.get("to"));
    Vec3 moveTo = parseVec(flags.get("move-to"));
    float maxMove = Float.parseFloat(flags.getOrDefault("max-move", "0"));
    if (mapId.isEmpty() || ((to != null || moveTo != null) && from == null)) {
      usage("--map is required; --to and --move-to need --from");
    }

    // round_robin keeps a connection to every resolved pod address; the default (pick_first)
    // would pin this process to one pod until its connection closes. The server's
    // --max-connection-age closes connections so new pods are picked up on re-resolution.
    ManagedChannel channel =
        ManagedChannelBuilder.forTarget(target)
            .defaultLoadBalancingPolicy("round_robin")
            .usePlaintext()
            .build();
    int exit = 0;
    try {
      CallCredentials auth = token.isEmpty() ? null : new BearerToken(token);
      // Every call gets a fresh deadline: a game backend must never wait on a slow pod longer
      // than its own budget.
      HealthCheckResponse health =
          call(
              "Health.Check",
              () ->
                  HealthGrpc.newBlockingStub(channel)
                      .withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
                      .check(
                          HealthCheckRequest.newBuilder()
                              .setService("waymesh.v1.Navigation")
                              .build()));
      System.out.printf("health: %s%n", health.getStatus());

      NavigationGrpc.NavigationBlockingStub nav =
          NavigationGrpc.newBlockingStub(channel).withCallCredentials(auth);
      MapInfo info =
          call(
              "GetMapInfo",
              () ->
                  nav.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
                      .getMapInfo(GetMapInfoRequest.newBuilder().setMapId(mapId).build()));
      System.out.printf(
          "map: %s polygons=%d tiles=%d islands=%d%n",
          info.getMapId(), info.getPolygons(), info.getTiles(), info.getIslands());

      if (to != null) {
        FindPathRequest request =
            FindPathRequest.newBuilder().setMapId(mapId).setStart(from).setEnd(to).build();
        FindPathResponse path =
            call(
                "FindPath",
                () -> nav.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS).findPath(request));
        System.out.printf(
            Locale.ROOT,
            "path: %s waypoints=%d length=%.3f%n",
            path.getStatus(),
            path.getWaypointsCount(),
            path.getLength());
      }

      if (moveTo != null) {
        ValidateMoveRequest request =
            ValidateMoveRequest.newBuilder()
                .setMapId(mapId)
                .setFrom(from)
                .setTo(moveTo)
                .setMaxDistance(maxMove)
                .build();
        ValidateMoveResponse move =
            call(
                "ValidateMove",
                () ->
                    nav.withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)
                        .validateMove(request));
        Vec3 r = move.getReached();
        System.out.printf(
            Locale.ROOT,
            "move: %s reason=%s distance=%.3f reached=%.3f,%.3f,%.3f%n",
            move.getVerdict(),
            move.getReason(),
            move.getDistance(),
            r.getX(),
            r.getY(),
            r.getZ());
      }
    } catch (CallFailed e) {
      System.out.printf(
          "error: %s: %s: %s%n",
          e.method, e.cause.getStatus().getCode(), e.cause.getStatus().getDescription());
      exit = 2;
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.exit(exit);
  }

  /** A failed RPC and which method it was, for the one-line error report. */
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
