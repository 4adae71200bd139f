package dev.waymesh.example;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import dev.waymesh.v1.Obstacle;
import dev.waymesh.v1.ObstacleLayerChange;
import dev.waymesh.v1.ObstacleLayerRef;
import dev.waymesh.v1.ObstacleServiceGrpc;
import dev.waymesh.v1.PutObstacleLayerRequest;
import dev.waymesh.v1.UpdateObstacleLayerRequest;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * An obstacle layer the way a zone server keeps it. The zone server owns the truth: every
 * obstacle by id, and the version that numbers the layer's current state. Each replica of the
 * service only caches it, and a cache may be missing or behind (a replica that restarted, or that
 * another replica's update never reached). Nothing coordinates the replicas: whichever one a call
 * reaches either holds the version the call names or says which one it holds, and the zone server
 * sends it the whole layer, once, then goes on.
 */
final class ZoneLayer {
  // The ErrorInfo reasons with which a replica refuses a layer version it does not hold
  // (docs/api.md); its metadata held_version says which version it holds ("0": none).
  private static final String ERROR_DOMAIN = "waymesh.dev";
  private static final String REASON_VERSION_UNKNOWN = "OBSTACLE_LAYER_VERSION_UNKNOWN";
  private static final String REASON_VERSION_MISMATCH = "OBSTACLE_LAYER_VERSION_MISMATCH";

  private final Session session;
  private final String mapId;
  private final String agentType;
  private final String name;
  private long version; // 0 until the first change
  // In id order, so every put of a version sends the same bytes.
  private final TreeMap<String, Obstacle> obstacles = new TreeMap<>();
  private int resyncs; // whole layers sent because a replica refused a version

  ZoneLayer(Session session, String mapId, String agentType, String name) {
    this.session = session;
    this.mapId = mapId;
    this.agentType = agentType;
    this.name = name;
  }

  /** Names the layer's current version in a query. */
  ObstacleLayerRef ref() {
    return ObstacleLayerRef.newBuilder().setLayer(name).setVersion(version).build();
  }

  int resyncs() {
    return resyncs;
  }

  /** Sets the zone server's layer to exactly these obstacles, numbered version+1; see put. */
  void replace(List<Obstacle> all) {
    version++;
    obstacles.clear();
    all.forEach(o -> obstacles.put(o.getId(), o));
  }

  /**
   * Applies upserts and removals to the zone server's layer, numbers the new state version+1 and
   * sends only the change (UpdateObstacleLayer from the previous version). A replica whose copy
   * is not at that base version (OBSTACLE_LAYER_VERSION_MISMATCH) gets the whole layer instead.
   * The zone server's layer changes even when the call fails: a replica may have applied it
   * before the answer was lost, so a version, once sent, must never name another state.
   */
  ObstacleLayerChange change(List<Obstacle> upserts, List<String> removals) {
    long base = version;
    version++;
    upserts.forEach(o -> obstacles.put(o.getId(), o));
    removals.forEach(obstacles::remove);
    UpdateObstacleLayerRequest request =
        UpdateObstacleLayerRequest.newBuilder()
            .setMapId(mapId)
            .setAgentType(agentType)
            .setLayer(name)
            .setBaseVersion(base)
            .setVersion(version)
            .addAllUpsert(upserts)
            .addAllRemove(removals)
            .build();
    Answer<ObstacleLayerChange> answer =
        onReplica(
            "UpdateObstacleLayer",
            channel ->
                session
                    .call(ObstacleServiceGrpc.newBlockingStub(channel))
                    .updateObstacleLayer(request)
                    .getChange());
    // A refusing replica gets the whole layer, which already holds the change.
    return answer.replica == null ? answer.value : putTo(answer.replica);
  }

  /**
   * Sends the whole layer at its current version to the next replica. Idempotent: a replica that
   * holds this version already answers already_held=true without carving again, so a zone server
   * that does not know whether a put arrived simply sends it again.
   */
  ObstacleLayerChange put() {
    return putTo(session.channel);
  }

  private ObstacleLayerChange putTo(Channel channel) {
    PutObstacleLayerRequest request =
        PutObstacleLayerRequest.newBuilder()
            .setMapId(mapId)
            .setAgentType(agentType)
            .setLayer(name)
            .setVersion(version)
            .addAllObstacles(obstacles.values())
            .build();
    return CallFailed.call(
        "PutObstacleLayer",
        () ->
            session
                .call(ObstacleServiceGrpc.newBlockingStub(channel))
                .putObstacleLayer(request)
                .getChange());
  }

  /**
   * Runs one navigation call that names ref(). When the replica that answers does not hold that
   * version (OBSTACLE_LAYER_VERSION_UNKNOWN), sends that replica the whole layer and runs the
   * call there once more.
   */
  <T> T query(String method, Function<Channel, T> send) {
    Answer<T> answer = onReplica(method, send);
    if (answer.replica == null) {
      return answer.value;
    }
    putTo(answer.replica);
    return CallFailed.call(method, () -> send.apply(answer.replica));
  }

  /** The answer to a call, or the replica that refused the layer version it named. */
  private record Answer<T>(T value, ManagedChannel replica) {}

  /**
   * Sends a call on the balanced channel. When the replica that answered refuses the layer
   * version, returns a channel to that replica instead of an answer: the caller resyncs it
   * there. Any other failure is thrown as a CallFailed.
   */
  private <T> Answer<T> onReplica(String method, Function<Channel, T> send) {
    AnsweredBy answeredBy = new AnsweredBy();
    try {
      Channel recorded = ClientInterceptors.intercept(session.channel, answeredBy);
      return new Answer<>(send.apply(recorded), null);
    } catch (StatusRuntimeException e) {
      ErrorInfo info = versionRefusal(e);
      if (info == null || answeredBy.address() == null) {
        throw new CallFailed(method, e);
      }
      ManagedChannel replica = session.replica(answeredBy.address());
      resyncs++;
      System.out.printf(
          "resync: %s: %s held_version=%s -> put: layer=%s version=%d obstacles=%d%n",
          method,
          info.getReason(),
          info.getMetadataOrDefault("held_version", ""),
          name,
          version,
          obstacles.size());
      return new Answer<>(null, replica);
    }
  }

  /**
   * The ErrorInfo of a FAILED_PRECONDITION that asks for the whole layer, else null. Clients
   * branch on the reason, never on the message text.
   */
  private static ErrorInfo versionRefusal(StatusRuntimeException e) {
    com.google.rpc.Status rich = StatusProto.fromThrowable(e);
    if (e.getStatus().getCode() != Status.Code.FAILED_PRECONDITION || rich == null) {
      return null;
    }
    for (Any detail : rich.getDetailsList()) {
      try {
        if (detail.is(ErrorInfo.class)) {
          ErrorInfo info = detail.unpack(ErrorInfo.class);
          if (info.getDomain().equals(ERROR_DOMAIN)
              && (info.getReason().equals(REASON_VERSION_UNKNOWN)
                  || info.getReason().equals(REASON_VERSION_MISMATCH))) {
            return info;
          }
        }
      } catch (InvalidProtocolBufferException undecodable) {
        // Not a refusal this layer can act on; the error report shows the detail.
      }
    }
    return null;
  }
}
