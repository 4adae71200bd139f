// Command waymesh-example is a small Waymesh client: it checks the server's health, describes
// a map, asks for a path and validates a move, each call under its own deadline, and prints
// one line per answer. The channel balances calls round-robin over every address the target
// resolves to, which is how a zone server should talk to a Kubernetes headless Service.
//
// Output (identical to the Java example's, so the two can be compared line by line):
//
//	health: SERVING
//	map: town polygons=6496 tiles=16 islands=4
//	path: COMPLETE waypoints=2 length=19.600
//	move: INVALID reason=TOO_FAR distance=1.000 reached=-11.760,0.000,-21.260
//
// Exit status: 0 when every call succeeded, 1 for bad flags, 2 when a call failed (the line
// "error: <method>: <CODE>: <message>" says which and why).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "waymesh/clients/go/waymeshv1"
)

// roundRobin makes the channel keep a connection to every resolved address and spread calls
// over them. gRPC's default (pick_first) would pin each client to one pod for the lifetime of
// its connection; the server's --max-connection-age makes clients re-resolve so new pods get
// traffic too.
const roundRobin = `{"loadBalancingConfig": [{"round_robin": {}}]}`

func main() {
	target := flag.String("target", "dns:///waymesh-grpc.waymesh.svc.cluster.local:50051",
		"gRPC target; dns:/// resolves every pod address behind a headless Service")
	mapID := flag.String("map", "", "map id (file name without .wmesh); required")
	from := flag.String("from", "", "start position x,y,z of FindPath and ValidateMove")
	to := flag.String("to", "", "end position x,y,z of FindPath (optional)")
	moveTo := flag.String("move-to", "", "destination x,y,z of ValidateMove (optional)")
	maxMove := flag.Float64("max-move", 0, "longest legal move in metres; 0 = no limit")
	deadlineMs := flag.Int("deadline-ms", 2000, "deadline of each call, in milliseconds")
	token := flag.String("token", os.Getenv("WAYMESH_AUTH_TOKEN"),
		"bearer token when the server runs with --auth-token")
	flag.Parse()
	if *mapID == "" || ((*to != "" || *moveTo != "") && *from == "") {
		fmt.Fprintln(os.Stderr, "usage: waymesh-example --target=... --map=ID [--from=x,y,z --to=x,y,z] [--move-to=x,y,z --max-move=M]")
		os.Exit(1)
	}
	start, err1 := parseVec(*from)
	end, err2 := parseVec(*to)
	dest, err3 := parseVec(*moveTo)
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}

	// Dialing is lazy: a server that is down shows up as UNAVAILABLE on the first call.
	conn, err := grpc.Dial(*target, grpc.WithInsecure(), grpc.WithDefaultServiceConfig(roundRobin))
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer conn.Close()
	nav := pb.NewNavigationClient(conn)

	// call gives each RPC its own deadline: a zone server ticks on a budget and must never
	// wait for a slow or unreachable navigation pod longer than that.
	call := func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*deadlineMs)*time.Millisecond)
		if *token != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+*token)
		}
		return ctx, cancel
	}

	ctx, cancel := call()
	health, err := grpc_health_v1.NewHealthClient(conn).Check(ctx,
		&grpc_health_v1.HealthCheckRequest{Service: "waymesh.v1.Navigation"})
	cancel()
	exitOnError("Health.Check", err)
	fmt.Printf("health: %s\n", health.GetStatus())

	ctx, cancel = call()
	info, err := nav.GetMapInfo(ctx, &pb.GetMapInfoRequest{MapId: *mapID})
	cancel()
	exitOnError("GetMapInfo", err)
	fmt.Printf("map: %s polygons=%d tiles=%d islands=%d\n",
		info.GetMapId(), info.GetPolygons(), info.GetTiles(), info.GetIslands())

	if end != nil {
		ctx, cancel = call()
		path, err := nav.FindPath(ctx, &pb.FindPathRequest{MapId: *mapID, Start: start, End: end})
		cancel()
		exitOnError("FindPath", err)
		fmt.Printf("path: %s waypoints=%d length=%.3f\n",
			path.GetStatus(), len(path.GetWaypoints()), path.GetLength())
	}

	if dest != nil {
		ctx, cancel = call()
		move, err := nav.ValidateMove(ctx, &pb.ValidateMoveRequest{
			MapId: *mapID, From: start, To: dest, MaxDistance: float32(*maxMove)})
		cancel()
		exitOnError("ValidateMove", err)
		r := move.GetReached()
		fmt.Printf("move: %s reason=%s distance=%.3f reached=%.3f,%.3f,%.3f\n",
			move.GetVerdict(), move.GetReason(), move.GetDistance(), r.GetX(), r.GetY(), r.GetZ())
	}
}

// exitOnError prints a failed call as "error: <method>: <CODE>: <message>" and exits 2.
func exitOnError(method string, err error) {
	if err == nil {
		return
	}
	s := status.Convert(err)
	fmt.Printf("error: %s: %s: %s\n", method, codeName(s.Code().String()), s.Message())
	os.Exit(2)
}

var wordStart = regexp.MustCompile(`([a-z])([A-Z])`)

// codeName spells a status code the way the gRPC spec and the Java client do ("NotFound" ->
// "NOT_FOUND").
func codeName(goName string) string {
	return strings.ToUpper(wordStart.ReplaceAllString(goName, "${1}_${2}"))
}

// parseVec reads "x,y,z"; an empty string is no position (nil).
func parseVec(s string) (*pb.Vec3, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("position %q: want x,y,z", s)
	}
	var v [3]float32
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil {
			return nil, fmt.Errorf("position %q: %v", s, err)
		}
		v[i] = float32(f)
	}
	return &pb.Vec3{X: v[0], Y: v[1], Z: v[2]}, nil
}
