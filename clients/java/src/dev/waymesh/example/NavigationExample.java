package dev.waymesh.example;

import dev.waymesh.v1.FindPathRequest;
import dev.waymesh.v1.FindPathResponse;
import dev.waymesh.v1.GetMapInfoRequest;
import dev.waymesh.v1.MapInfo;
import dev.waymesh.v1.NavigationServiceGrpc;
import dev.waymesh.v1.Obstacle;
import dev.waymesh.v1.ValidateMoveRequest;
import dev.waymesh.v1.ValidateMoveResponse;
import dev.waymesh.v1.Vec3;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * A small Waymesh client: checks the server's health, describes a map, asks for a path and
 * validates a move, each call under its own deadline, and prints one line per answer (the same
 * lines as the Go example). The channel balances calls round-robin over every address the
 * target resolves to, which is how a backend should talk to a Kubernetes headless Service, and
 * retries overloaded or unavailable calls as clients/service_config.json says.
 *
 * <p>{@code waymesh-example obstacles --block=x,y,z ...} shows instead how a zone server keeps an
 * obstacle layer on the service (ZoneLayer): it owns the layer and its version, and resends the
 * whole layer to a replica that refuses the version a call names (ObstacleExample).
 *
 * <p>{@code waymesh-example crowd --start=x,y,z --end=x,y,z ...} runs a crowd on the service
 * (waymesh.v1.CrowdService.RunCrowd, CrowdExample): agents spawned behind start walk to end and
 * spread on a ring round it; the stream is cancelled midway, as a lost replica would end it, and
 * the client opens a new one and replays its agents from their last reported positions
 * (CrowdSession).
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
    String command =
        args.length > 0 && (args[0].equals("obstacles") || args[0].equals("crowd")) ? args[0] : "";
    boolean obstacles = command.equals("obstacles");
    boolean crowd = command.equals("crowd");
    Map<String, String> flags =
        Flags.parse(command.isEmpty() ? args : Arrays.copyOfRange(args, 1, args.length));
    String target =
        flags.getOrDefault("target", "dns:///waymesh-grpc.waymesh.svc.cluster.local:50051");
    String mapId = flags.getOrDefault("map", "");
    String agentType = flags.getOrDefault("agent-type", "");
    long deadlineMs = Flags.parseLong("deadline-ms", flags.getOrDefault("deadline-ms", "2000"));
    String token =
        flags.getOrDefault("token", System.getenv().getOrDefault("WAYMESH_AUTH_TOKEN", ""));
    Vec3 start = Flags.parseVec(flags.get("start"));
    Vec3 end = Flags.parseVec(flags.get("end"));
    Vec3 moveTo = Flags.parseVec(flags.get("move-to"));
    float maxMove = Flags.parseFloat("max-move", flags.getOrDefault("max-move", "0"));
    if (mapId.isEmpty() || ((end != null || moveTo != null) && start == null)) {
      Flags.usage("--map is required; --end and --move-to need --start");
    }
    if ((obstacles || crowd) && (end == null || moveTo != null)) {
      Flags.usage(command + ": --start and --end are required, --move-to is not used");
    }
    Obstacle box = obstacles ? ObstacleExample.blockBox(flags) : null;
    CrowdExample crowdExample = crowd ? CrowdExample.fromFlags(flags) : null;
    Channels.TlsFlags tls =
        new Channels.TlsFlags(
            flags.getOrDefault("tls-ca", ""),
            flags.getOrDefault("tls-cert", ""),
            flags.getOrDefault("tls-key", ""),
            flags.getOrDefault("tls-server-name", ""));
    String serviceConfig =
        flags.getOrDefault("service-config", System.getProperty("waymesh.serviceConfig", ""));

    Channels channels = null;
    try {
      channels = new Channels(tls, serviceConfig);
    } catch (Channels.BadFlag e) {
      Flags.usage(e.getMessage());
    }
    int exit = 0;
    try (Session session = new Session(channels, target, deadlineMs, token)) {
      if (obstacles) {
        ObstacleExample.run(
            session, mapId, agentType, flags.getOrDefault("layer", "example-zone"), start, end,
            box);
      } else if (crowd) {
        crowdExample.run(session, mapId, agentType, start, end);
      } else {
        run(session, mapId, agentType, start, end, moveTo, maxMove);
      }
    } catch (CallFailed e) {
      ErrorReport.lines(e.method, e.cause).forEach(System.out::println);
      exit = 2;
    }
    System.exit(exit);
  }

  /** The line both examples print for a FindPath answer. */
  static String pathLine(FindPathResponse path) {
    return String.format(
        Locale.ROOT,
        "path: %s waypoints=%d length=%.3f version=%d",
        path.getStatus(),
        path.getWaypointsCount(),
        path.getLength(),
        path.getMapVersion());
  }

  private static void run(
      Session session,
      String mapId,
      String agentType,
      Vec3 start,
      Vec3 end,
      Vec3 moveTo,
      float maxMove) {
    HealthCheckResponse health =
        CallFailed.call(
            "Health.Check",
            () ->
                session
                    .call(HealthGrpc.newBlockingStub(session.channel))
                    .check(HealthCheckRequest.newBuilder().setService(HEALTH_SERVICE).build()));
    System.out.printf("health: %s%n", health.getStatus());

    NavigationServiceGrpc.NavigationServiceBlockingStub nav =
        NavigationServiceGrpc.newBlockingStub(session.channel);
    GetMapInfoRequest infoRequest =
        GetMapInfoRequest.newBuilder().setMapId(mapId).setAgentType(agentType).build();
    MapInfo info =
        CallFailed.call("GetMapInfo", () -> session.call(nav).getMapInfo(infoRequest)).getMap();
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
          CallFailed.call("FindPath", () -> session.call(nav).findPath(request));
      System.out.println(pathLine(path));
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
          CallFailed.call("ValidateMove", () -> session.call(nav).validateMove(request));
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
}
