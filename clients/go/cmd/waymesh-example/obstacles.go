package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"google.golang.org/grpc"

	pb "waymesh/clients/go/waymeshv1"
)

// obstacleFlags are the flags of `waymesh-example obstacles`.
type obstacleFlags struct {
	layer, block, halfExtents string
	yawDeg                    float64
}

func (o *obstacleFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.layer, "layer", "example-zone", "obstacle layer name ([A-Za-z0-9_.-], 1..64)")
	fs.StringVar(&o.block, "block", "", "centre x,y,z of the block box the example puts (required)")
	fs.StringVar(&o.halfExtents, "half-extents", "1.5,2,1.5",
		"half extents x,y,z of the block box, metres")
	fs.Float64Var(&o.yawDeg, "yaw-deg", 0, "yaw of the block box about the vertical axis, degrees")
}

// blockBox is the obstacle the example puts, a door closing across a corridor, say.
func (o *obstacleFlags) blockBox() (*pb.Obstacle, error) {
	center, err := parseVec(o.block)
	if err == nil && center == nil {
		err = fmt.Errorf("--block: the box centre x,y,z is required")
	}
	if err != nil {
		return nil, err
	}
	half, err := parseVec(o.halfExtents)
	if err != nil || half == nil {
		return nil, fmt.Errorf("--half-extents: want x,y,z (%v)", err)
	}
	return &pb.Obstacle{Id: "block-1", Effect: pb.ObstacleEffect_OBSTACLE_EFFECT_BLOCK,
		Shape: &pb.Obstacle_Box{Box: &pb.ObstacleBox{Center: center, HalfExtents: half,
			YawDeg: float32(o.yawDeg)}}}, nil
}

// runObstacles shows the zone-server pattern of an obstacle layer (zoneLayer) from start to end
// against one replica, which twice loses its layers (DeleteObstacleLayer, as a restart would):
//
//	path without the layer; put the block box (version 1); the same put again (already held);
//	path on version 1; the replica loses the layer; path on version 1 again: refused
//	(OBSTACLE_LAYER_VERSION_UNKNOWN), resync, answered; remove the box (update 1 -> 2); path on
//	version 2; the replica loses the layer; put the box back (update 2 -> 3): refused
//	(OBSTACLE_LAYER_VERSION_MISMATCH), resync; path on version 3.
func runObstacles(svc *session, mapID, agentType string, start, end *pb.Vec3, box *pb.Obstacle,
	layerName string) {
	layer := newZoneLayer(svc, mapID, agentType, layerName)
	findPath := func(ref *pb.ObstacleLayerRef) {
		request := &pb.FindPathRequest{MapId: mapID, AgentType: agentType, Start: start, End: end,
			Obstacles: ref}
		var path *pb.FindPathResponse
		send := func(ctx context.Context, conn *grpc.ClientConn, opts ...grpc.CallOption) (err error) {
			path, err = pb.NewNavigationServiceClient(conn).FindPath(ctx, request, opts...)
			return err
		}
		var err error
		if ref == nil {
			ctx, cancel := svc.context()
			err = send(ctx, svc.conn)
			cancel()
		} else {
			err = layer.query("FindPath", send)
		}
		exitOnError("FindPath", err)
		fmt.Printf("%s obstacles=%s\n", pathLine(path), refName(ref))
	}
	loseLayer := func() {
		ctx, cancel := svc.context()
		answer, err := pb.NewObstacleServiceClient(svc.conn).DeleteObstacleLayer(ctx,
			&pb.DeleteObstacleLayerRequest{MapId: mapID, AgentType: agentType, Layer: layerName})
		cancel()
		exitOnError("DeleteObstacleLayer", err)
		fmt.Printf("lost: layer=%s deleted=%t\n", layerName, answer.GetDeleted())
	}
	printChange := func(verb, method string, change *pb.ObstacleLayerChange, err error) {
		exitOnError(method, err)
		fmt.Println(describeChange(verb, layerName, change))
	}

	findPath(nil)
	layer.replace(box)
	for i := 0; i < 2; i++ {
		change, err := layer.put()
		printChange("put", "PutObstacleLayer", change, err)
	}
	findPath(layer.ref())
	loseLayer()
	findPath(layer.ref())
	change, err := layer.change(nil, []string{box.GetId()})
	printChange("update", "UpdateObstacleLayer", change, err)
	findPath(layer.ref())
	loseLayer()
	change, err = layer.change([]*pb.Obstacle{box}, nil)
	printChange("update", "UpdateObstacleLayer", change, err)
	findPath(layer.ref())
	fmt.Printf("resyncs: %d\n", layer.resyncs)
}

// refName prints an ObstacleLayerRef as layer@version ("none" without one).
func refName(ref *pb.ObstacleLayerRef) string {
	if ref == nil {
		return "none"
	}
	return ref.GetLayer() + "@" + strconv.FormatUint(ref.GetVersion(), 10)
}
