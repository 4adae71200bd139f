package dev.waymesh.example;

import dev.waymesh.v1.DeleteObstacleLayerRequest;
import dev.waymesh.v1.FindPathRequest;
import dev.waymesh.v1.FindPathResponse;
import dev.waymesh.v1.NavigationServiceGrpc;
import dev.waymesh.v1.Obstacle;
import dev.waymesh.v1.ObstacleBox;
import dev.waymesh.v1.ObstacleEffect;
import dev.waymesh.v1.ObstacleLayerChange;
import dev.waymesh.v1.ObstacleLayerRef;
import dev.waymesh.v1.ObstacleServiceGrpc;
import dev.waymesh.v1.Vec3;
import java.util.List;
import java.util.Map;

/**
 * `waymesh-example obstacles`: the zone-server pattern of an obstacle layer (ZoneLayer) from start
 * to end against one replica, which twice loses its layers (DeleteObstacleLayer, as a restart
 * would). Prints the same lines as the Go example:
 *
 * <p>path without the layer; put the block box (version 1); the same put again (already held);
 * path on version 1; the replica loses the layer; path on version 1 again: refused
 * (OBSTACLE_LAYER_VERSION_UNKNOWN), resync, answered; remove the box (update 1 -> 2); path on
 * version 2; the replica loses the layer; put the box back (update 2 -> 3): refused
 * (OBSTACLE_LAYER_VERSION_MISMATCH), resync; path on version 3.
 *
 * <p>Flags (besides the connection flags): --start=x,y,z --end=x,y,z --block=x,y,z (centre of the
 * block box) [--half-extents=1.5,2,1.5] [--yaw-deg=0] [--layer=example-zone].
 */
final class ObstacleExample {
  private final Session session;
  private final String mapId;
  private final String agentType;
  private final String layerName;
  private final Vec3 start;
  private final Vec3 end;
  private final ZoneLayer layer;

  private ObstacleExample(
      Session session, String mapId, String agentType, String layerName, Vec3 start, Vec3 end) {
    this.session = session;
    this.mapId = mapId;
    this.agentType = agentType;
    this.layerName = layerName;
    this.start = start;
    this.end = end;
    this.layer = new ZoneLayer(session, mapId, agentType, layerName);
  }

  /** The obstacle the example puts, a door closing across a corridor, say; from the flags. */
  static Obstacle blockBox(Map<String, String> flags) {
    Vec3 center = Flags.parseVec(flags.get("block"));
    Vec3 half = Flags.parseVec(flags.getOrDefault("half-extents", "1.5,2,1.5"));
    if (center == null || half == null) {
      Flags.usage("obstacles: --block=x,y,z (the box centre) is required");
    }
    float yaw = Flags.parseFloat("yaw-deg", flags.getOrDefault("yaw-deg", "0"));
    return Obstacle.newBuilder()
        .setId("block-1")
        .setEffect(ObstacleEffect.OBSTACLE_EFFECT_BLOCK)
        .setBox(ObstacleBox.newBuilder().setCenter(center).setHalfExtents(half).setYawDeg(yaw))
        .build();
  }

  static void run(
      Session session, String mapId, String agentType, String layerName, Vec3 start, Vec3 end,
      Obstacle box) {
    new ObstacleExample(session, mapId, agentType, layerName, start, end).scenario(box);
  }

  private void scenario(Obstacle box) {
    findPath(null);
    layer.replace(List.of(box));
    for (int i = 0; i < 2; i++) {
      print("put", layer.put());
    }
    findPath(layer.ref());
    loseLayer();
    findPath(layer.ref());
    print("update", layer.change(List.of(), List.of(box.getId())));
    findPath(layer.ref());
    loseLayer();
    print("update", layer.change(List.of(box), List.of()));
    findPath(layer.ref());
    System.out.printf("resyncs: %d%n", layer.resyncs());
  }

  private void findPath(ObstacleLayerRef ref) {
    FindPathRequest.Builder request =
        FindPathRequest.newBuilder()
            .setMapId(mapId)
            .setAgentType(agentType)
            .setStart(start)
            .setEnd(end);
    if (ref != null) {
      request.setObstacles(ref);
    }
    FindPathResponse path =
        ref == null
            ? CallFailed.call(
                "FindPath",
                () ->
                    session
                        .call(NavigationServiceGrpc.newBlockingStub(session.channel))
                        .findPath(request.build()))
            : layer.query(
                "FindPath",
                channel ->
                    session
                        .call(NavigationServiceGrpc.newBlockingStub(channel))
                        .findPath(request.build()));
    System.out.printf(
        "%s obstacles=%s%n",
        NavigationExample.pathLine(path),
        ref == null ? "none" : ref.getLayer() + "@" + Long.toUnsignedString(ref.getVersion()));
  }

  /** Makes the replica forget the layer, as a restart would. */
  private void loseLayer() {
    boolean deleted =
        CallFailed.call(
                "DeleteObstacleLayer",
                () ->
                    session
                        .call(ObstacleServiceGrpc.newBlockingStub(session.channel))
                        .deleteObstacleLayer(
                            DeleteObstacleLayerRequest.newBuilder()
                                .setMapId(mapId)
                                .setAgentType(agentType)
                                .setLayer(layerName)
                                .build()))
            .getDeleted();
    System.out.printf("lost: layer=%s deleted=%b%n", layerName, deleted);
  }

  private void print(String verb, ObstacleLayerChange c) {
    System.out.printf(
        "%s: layer=%s version=%d obstacles=%d tiles_carved=%d already_held=%b%n",
        verb, layerName, c.getVersion(), c.getObstacles(), c.getTilesCarved(), c.getAlreadyHeld());
  }
}
