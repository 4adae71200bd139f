// Command waymesh-example is a small Waymesh client: it checks the server's health, describes
// a map, asks for a path and validates a move, each call under its own deadline, and prints
// one line per answer. The channel balances calls round-robin over every address the target
// resolves to, which is how a zone server should talk to a Kubernetes headless Service, and
// retries overloaded or unavailable calls as clients/service_config.json says (after the delay
// the server's grpc-retry-pushback-ms trailer asks for).
//
// Output (identical to the Java example's, so the two can be compared line by line):
//
//	health: SERVING
//	map: town version=1 polygons=6496 tiles=16 islands=4
//	path: PATH_STATUS_COMPLETE waypoints=2 length=19.600 version=1
//	move: VERDICT_INVALID reason=REASON_TOO_FAR distance=1.000 reached=-11.760,0.000,-21.260 version=1
//
// Exit status: 0 when every call succeeded, 1 for bad flags, 2 when a call failed (the line
// "error: <method>: <CODE>: <message>" says which, the lines after it the error details the
// server attached: "error-info: reason=<REASON> domain=<DOMAIN> [key=value...]", ...).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	_ "waymesh/clients/go/protocodec"
	pb "waymesh/clients/go/waymeshv1"
)

// serviceConfigPath is the default of --service-config; build.sh sets it (-ldflags -X) to the
// copy of clients/service_config.json it puts beside the binary.
var serviceConfigPath = ""

// healthService is the name the server reports the navigation service's health under.
const healthService = "waymesh.v1.NavigationService"

func main() {
	enableGrpcGoRetry()
	target := flag.String("target", "dns:///waymesh-grpc.waymesh.svc.cluster.local:50051",
		"gRPC target; dns:/// resolves every pod address behind a headless Service")
	mapID := flag.String("map", "", "map id (file name without .wmesh); required")
	agentType := flag.String("agent-type", "", "which bake of the map (empty = the default one)")
	from := flag.String("start", "", "start position x,y,z of FindPath and ValidateMove")
	to := flag.String("end", "", "end position x,y,z of FindPath (optional)")
	moveTo := flag.String("move-to", "", "destination x,y,z of ValidateMove (optional)")
	maxMove := flag.Float64("max-move", 0, "longest legal move in metres; 0 = no limit")
	deadlineMs := flag.Int("deadline-ms", 2000, "deadline of each call (retries included), in milliseconds")
	token := flag.String("token", os.Getenv("WAYMESH_AUTH_TOKEN"),
		"bearer token when the server runs with --auth-token (default: $WAYMESH_AUTH_TOKEN)")
	serviceConfig := flag.String("service-config", serviceConfigPath,
		"gRPC service config JSON (load balancing, retry policy)")
	var tlsFlags tlsOptions
	tlsFlags.register(flag.CommandLine)
	flag.Parse()
	if *mapID == "" || ((*to != "" || *moveTo != "") && *from == "") || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: waymesh-example --target=... --map=ID [--start=x,y,z --end=x,y,z] "+
			"[--move-to=x,y,z --max-move=M] [--tls-ca=PEM [--tls-cert=PEM --tls-key=PEM] [--tls-server-name=NAME]]")
		os.Exit(1)
	}
	start, err1 := parseVec(*from)
	end, err2 := parseVec(*to)
	dest, err3 := parseVec(*moveTo)
	creds, err4 := tlsFlags.dialOption()
	config, err5 := readServiceConfig(*serviceConfig)
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}

	// Dialing is lazy: a server that is down shows up as UNAVAILABLE on the first call.
	// WithDisableServiceConfig: the shipped config is the one in force, not a DNS TXT record.
	conn, err := grpc.Dial(*target, creds, grpc.WithDefaultServiceConfig(config),
		grpc.WithDisableServiceConfig())
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer conn.Close()
	nav := pb.NewNavigationServiceClient(conn)

	// call gives each RPC its own deadline: a zone server ticks on a budget and must never
	// wait for a slow or unreachable navigation pod longer than that, retries included.
	call := func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*deadlineMs)*time.Millisecond)
		if *token != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+*token)
		}
		return ctx, cancel
	}

	ctx, cancel := call()
	health, err := grpc_health_v1.NewHealthClient(conn).Check(ctx,
		&grpc_health_v1.HealthCheckRequest{Service: healthService})
	cancel()
	exitOnError("Health.Check", err)
	fmt.Printf("health: %s\n", health.GetStatus())

	ctx, cancel = call()
	info, err := nav.GetMapInfo(ctx, &pb.GetMapInfoRequest{MapId: *mapID, AgentType: *agentType})
	cancel()
	exitOnError("GetMapInfo", err)
	m := info.GetMap()
	fmt.Printf("map: %s version=%d polygons=%d tiles=%d islands=%d\n",
		m.GetMapId(), m.GetMapVersion(), m.GetPolygons(), m.GetTiles(), m.GetIslands())

	if end != nil {
		ctx, cancel = call()
		path, err := nav.FindPath(ctx, &pb.FindPathRequest{
			MapId: *mapID, AgentType: *agentType, Start: start, End: end})
		cancel()
		exitOnError("FindPath", err)
		fmt.Printf("path: %s waypoints=%d length=%.3f version=%d\n",
			path.GetStatus(), len(path.GetWaypoints()), path.GetLength(), path.GetMapVersion())
	}

	if dest != nil {
		ctx, cancel = call()
		move, err := nav.ValidateMove(ctx, &pb.ValidateMoveRequest{
			MapId: *mapID, AgentType: *agentType, Start: start, End: dest,
			MaxDistance: float32(*maxMove)})
		cancel()
		exitOnError("ValidateMove", err)
		r := move.GetReached()
		fmt.Printf("move: %s reason=%s distance=%.3f reached=%.3f,%.3f,%.3f version=%d\n",
			move.GetVerdict(), move.GetReason(), move.GetDistance(), r.GetX(), r.GetY(), r.GetZ(),
			move.GetMapVersion())
	}
}

// readServiceConfig returns the JSON text of the service config file.
func readServiceConfig(path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("--service-config: no file given (clients/service_config.json)")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--service-config: %v", err)
	}
	return string(text), nil
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
