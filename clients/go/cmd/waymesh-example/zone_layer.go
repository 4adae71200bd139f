package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	pb "waymesh/clients/go/waymeshv1"
)

// The ErrorInfo reasons with which a replica refuses a layer version it does not hold
// (docs/api.md); its metadata held_version says which version it holds ("0": none).
const (
	errorDomain           = "waymesh.dev"
	reasonVersionUnknown  = "OBSTACLE_LAYER_VERSION_UNKNOWN"
	reasonVersionMismatch = "OBSTACLE_LAYER_VERSION_MISMATCH"
)

// sendFunc makes one call on conn (the balanced channel or one replica's) with opts.
type sendFunc func(ctx context.Context, conn *grpc.ClientConn, opts ...grpc.CallOption) error

// zoneLayer is an obstacle layer the way a zone server keeps it. The zone server owns the
// truth: every obstacle by id, and the version that numbers the layer's current state. Each
// replica of the service only caches it, and a cache may be missing or behind (a replica that
// restarted, or that another replica's update never reached). Nothing coordinates the
// replicas: whichever one a call reaches either holds the version the call names or says which
// one it holds, and the zone server sends it the whole layer, once, then goes on.
type zoneLayer struct {
	svc              *session
	mapID, agentType string
	name             string
	version          uint64 // 0 until the first change
	obstacles        map[string]*pb.Obstacle
	resyncs          int // whole layers sent because a replica refused a version
}

func newZoneLayer(svc *session, mapID, agentType, name string) *zoneLayer {
	return &zoneLayer{svc: svc, mapID: mapID, agentType: agentType, name: name,
		obstacles: map[string]*pb.Obstacle{}}
}

// ref names the layer's current version in a query.
func (l *zoneLayer) ref() *pb.ObstacleLayerRef {
	return &pb.ObstacleLayerRef{Layer: l.name, Version: l.version}
}

// replace sets the zone server's layer to exactly these obstacles, numbered version+1. Send it
// with put.
func (l *zoneLayer) replace(obstacles ...*pb.Obstacle) {
	l.version++
	l.obstacles = map[string]*pb.Obstacle{}
	for _, o := range obstacles {
		l.obstacles[o.GetId()] = o
	}
}

// change applies upserts and removals to the zone server's layer, numbers the new state
// version+1 and sends only the change (UpdateObstacleLayer from the previous version). A replica
// whose copy is not at that base version (OBSTACLE_LAYER_VERSION_MISMATCH) gets the whole layer
// instead. The zone server's layer changes even when the call fails: a replica may have applied
// it before the answer was lost, so a version, once sent, must never name another state.
func (l *zoneLayer) change(upserts []*pb.Obstacle, removals []string) (
	*pb.ObstacleLayerChange, error) {
	base := l.version
	l.version++
	for _, o := range upserts {
		l.obstacles[o.GetId()] = o
	}
	for _, id := range removals {
		delete(l.obstacles, id)
	}
	request := &pb.UpdateObstacleLayerRequest{MapId: l.mapID, AgentType: l.agentType,
		Layer: l.name, BaseVersion: base, Version: l.version, Upsert: upserts, Remove: removals}
	var answer *pb.UpdateObstacleLayerResponse
	replica, err := l.onReplica("UpdateObstacleLayer", func(ctx context.Context, conn *grpc.ClientConn,
		opts ...grpc.CallOption) (err error) {
		answer, err = pb.NewObstacleServiceClient(conn).UpdateObstacleLayer(ctx, request, opts...)
		return err
	})
	if err != nil {
		return nil, err
	}
	if replica != nil { // the replica got the whole layer, which already holds the change
		return l.putTo(replica)
	}
	return answer.GetChange(), nil
}

// put sends the whole layer at its current version to the next replica. Idempotent: a replica
// that holds this version already answers already_held=true without carving again, so a zone
// server that does not know whether a put arrived simply sends it again.
func (l *zoneLayer) put() (*pb.ObstacleLayerChange, error) { return l.putTo(l.svc.conn) }

func (l *zoneLayer) putTo(conn *grpc.ClientConn) (*pb.ObstacleLayerChange, error) {
	request := &pb.PutObstacleLayerRequest{MapId: l.mapID, AgentType: l.agentType, Layer: l.name,
		Version: l.version, Obstacles: l.sortedObstacles()}
	ctx, cancel := l.svc.context()
	defer cancel()
	answer, err := pb.NewObstacleServiceClient(conn).PutObstacleLayer(ctx, request)
	if err != nil {
		return nil, &callError{"PutObstacleLayer", err}
	}
	return answer.GetChange(), nil
}

// query runs one navigation call that names l.ref(). When the replica that answers does not
// hold that version (OBSTACLE_LAYER_VERSION_UNKNOWN), it sends that replica the whole layer and
// runs the call there once more.
func (l *zoneLayer) query(method string, send sendFunc) error {
	replica, err := l.onReplica(method, send)
	if err != nil || replica == nil {
		return err
	}
	if _, err := l.putTo(replica); err != nil {
		return err
	}
	ctx, cancel := l.svc.context()
	defer cancel()
	return send(ctx, replica)
}

// onReplica sends a call on the balanced channel. When the replica that answered refuses the
// layer version, onReplica returns a channel to that replica (and no error): the caller resyncs
// it there. Any other error is returned as it is.
func (l *zoneLayer) onReplica(method string, send sendFunc) (*grpc.ClientConn, error) {
	var answeredBy peer.Peer
	ctx, cancel := l.svc.context()
	err := send(ctx, l.svc.conn, grpc.Peer(&answeredBy))
	cancel()
	info := versionRefusal(err)
	if info == nil {
		return nil, err
	}
	replica, dialErr := l.svc.replica(answeredBy.Addr)
	if dialErr != nil {
		return nil, fmt.Errorf("%v; resync: %v", err, dialErr)
	}
	l.resyncs++
	fmt.Printf("resync: %s: %s held_version=%s -> put: layer=%s version=%d obstacles=%d\n",
		method, info.GetReason(), info.GetMetadata()["held_version"], l.name, l.version,
		len(l.obstacles))
	return replica, nil
}

// versionRefusal is the ErrorInfo of a FAILED_PRECONDITION that asks for the whole layer,
// else nil. Clients branch on the reason, never on the message text.
func versionRefusal(err error) *errdetails.ErrorInfo {
	s, ok := status.FromError(err)
	if err == nil || !ok || s.Code() != codes.FailedPrecondition {
		return nil
	}
	for _, detail := range s.Details() {
		info, ok := detail.(*errdetails.ErrorInfo)
		if ok && info.GetDomain() == errorDomain &&
			(info.GetReason() == reasonVersionUnknown || info.GetReason() == reasonVersionMismatch) {
			return info
		}
	}
	return nil
}

// sortedObstacles lists the layer in id order, so every put of a version sends the same bytes.
func (l *zoneLayer) sortedObstacles() []*pb.Obstacle {
	ids := make([]string, 0, len(l.obstacles))
	for id := range l.obstacles {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]*pb.Obstacle, len(ids))
	for i, id := range ids {
		out[i] = l.obstacles[id]
	}
	return out
}

// describeChange formats a layer change the way both examples print it.
func describeChange(verb, layer string, c *pb.ObstacleLayerChange) string {
	return fmt.Sprintf("%s: layer=%s version=%d obstacles=%d tiles_carved=%d already_held=%s",
		verb, layer, c.GetVersion(), c.GetObstacles(), c.GetTilesCarved(),
		strconv.FormatBool(c.GetAlreadyHeld()))
}
