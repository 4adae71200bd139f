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
// `waymesh-example obstacles --block=x,y,z ...` shows instead how a zone server keeps an
// obstacle layer on the service (zone_layer.go): it owns the layer and its version, and resends
// the whole layer to a replica that refuses the version a call names (runObstacles).
//
// `waymesh-example crowd --start=x,y,z --end=x,y,z ...` runs a crowd on the service
// (waymesh.v1.CrowdService.RunCrowd, crowd.go): agents spawned behind start walk to end and
// spread on a ring round it; the stream is cancelled midway, as a lost replica would end it, and
// the client opens a new one and replays its agents from their last reported positions
// (crowd_session.go).
//
// Exit status: 0 when every call succeeded, 1 for bad flags, 2 when a call failed (the line
// "error: <method>: <CODE>: <message>" says which, the lines after it the error details the
// server attached: "error-info: reason=<REASON> domain=<DOMAIN> [key=value...]", ...).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health/grpc_health_v1"

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
	args := os.Args[1:]
	command := ""
	if len(args) > 0 && (args[0] == "obstacles" || args[0] == "crowd") {
		command, args = args[0], args[1:]
	}
	obstacles, crowd := command == "obstacles", command == "crowd"
	fs := flag.CommandLine
	target := fs.String("target", "dns:///waymesh-grpc.waymesh.svc.cluster.local:50051",
		"gRPC target; dns:/// resolves every pod address behind a headless Service")
	mapID := fs.String("map", "", "map id (file name without .wmesh); required")
	agentType := fs.String("agent-type", "", "which bake of the map (empty = the default one)")
	from := fs.String("start", "", "start position x,y,z of FindPath and ValidateMove")
	to := fs.String("end", "", "end position x,y,z of FindPath (optional)")
	moveTo := fs.String("move-to", "", "destination x,y,z of ValidateMove (optional)")
	maxMove := fs.Float64("max-move", 0, "longest legal move in metres; 0 = no limit")
	deadlineMs := fs.Int("deadline-ms", 2000, "deadline of each call (retries included), in milliseconds")
	token := fs.String("token", os.Getenv("WAYMESH_AUTH_TOKEN"),
		"bearer token when the server runs with --auth-token (default: $WAYMESH_AUTH_TOKEN)")
	serviceConfig := fs.String("service-config", serviceConfigPath,
		"gRPC service config JSON (load balancing, retry policy)")
	var tlsFlags tlsOptions
	tlsFlags.register(fs)
	var obstacleOptions obstacleFlags
	if obstacles {
		obstacleOptions.register(fs)
	}
	var crowdOptions crowdFlags
	if crowd {
		crowdOptions.register(fs)
	}
	_ = fs.Parse(args) // flag.CommandLine exits on a bad flag itself
	if *mapID == "" || ((*to != "" || *moveTo != "") && *from == "") || fs.NArg() != 0 ||
		((obstacles || crowd) && (*to == "" || *moveTo != "")) {
		fmt.Fprintln(os.Stderr, "usage: waymesh-example --target=... --map=ID [--start=x,y,z --end=x,y,z] "+
			"[--move-to=x,y,z --max-move=M] [--tls-ca=PEM [--tls-cert=PEM --tls-key=PEM] [--tls-server-name=NAME]]\n"+
			"       waymesh-example obstacles --target=... --map=ID --start=x,y,z --end=x,y,z --block=x,y,z "+
			"[--half-extents=x,y,z] [--yaw-deg=D] [--layer=NAME] [--tls-...]\n"+
			"       waymesh-example crowd --target=... --map=ID --start=x,y,z --end=x,y,z [--agents=6] "+
			"[--spacing=M] [--radius=M] [--max-speed=V] [--dt=S] [--break-after=N] [--max-ticks=N] "+
			"[--report-every=N] [--mode=orca|circling] [--tls-...]")
		os.Exit(1)
	}
	start, err1 := parseVec(*from)
	end, err2 := parseVec(*to)
	dest, err3 := parseVec(*moveTo)
	creds, err4 := tlsFlags.dialOption()
	config, err5 := readServiceConfig(*serviceConfig)
	var box *pb.Obstacle
	var err6 error
	if obstacles {
		box, err6 = obstacleOptions.blockBox()
	}
	if crowd {
		err6 = crowdOptions.check()
	}
	for _, err := range []error{err1, err2, err3, err4, err5, err6} {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}

	// WithDisableServiceConfig: the shipped config is the one in force, not a DNS TXT record.
	svc, err := dialSession(*target, time.Duration(*deadlineMs)*time.Millisecond, *token, creds,
		grpc.WithDefaultServiceConfig(config), grpc.WithDisableServiceConfig())
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer svc.close()
	if obstacles {
		runObstacles(svc, *mapID, *agentType, start, end, box, obstacleOptions.layer)
		return
	}
	if crowd {
		runCrowd(svc, *mapID, *agentType, start, end, crowdOptions)
		return
	}
	runNavigation(svc, *mapID, *agentType, start, end, dest, float32(*maxMove))
}

// runNavigation checks health, describes the map, finds a path and validates a move.
func runNavigation(svc *session, mapID, agentType string, start, end, dest *pb.Vec3, maxMove float32) {
	nav := pb.NewNavigationServiceClient(svc.conn)
	ctx, cancel := svc.context()
	health, err := grpc_health_v1.NewHealthClient(svc.conn).Check(ctx,
		&grpc_health_v1.HealthCheckRequest{Service: healthService})
	cancel()
	exitOnError("Health.Check", err)
	fmt.Printf("health: %s\n", health.GetStatus())

	ctx, cancel = svc.context()
	info, err := nav.GetMapInfo(ctx, &pb.GetMapInfoRequest{MapId: mapID, AgentType: agentType})
	cancel()
	exitOnError("GetMapInfo", err)
	m := info.GetMap()
	fmt.Printf("map: %s version=%d polygons=%d tiles=%d islands=%d\n",
		m.GetMapId(), m.GetMapVersion(), m.GetPolygons(), m.GetTiles(), m.GetIslands())

	if end != nil {
		ctx, cancel = svc.context()
		path, err := nav.FindPath(ctx, &pb.FindPathRequest{
			MapId: mapID, AgentType: agentType, Start: start, End: end})
		cancel()
		exitOnError("FindPath", err)
		fmt.Println(pathLine(path))
	}

	if dest != nil {
		ctx, cancel = svc.context()
		move, err := nav.ValidateMove(ctx, &pb.ValidateMoveRequest{
			MapId: mapID, AgentType: agentType, Start: start, End: dest, MaxDistance: maxMove})
		cancel()
		exitOnError("ValidateMove", err)
		r := move.GetReached()
		fmt.Printf("move: %s reason=%s distance=%.3f reached=%.3f,%.3f,%.3f version=%d\n",
			move.GetVerdict(), move.GetReason(), move.GetDistance(), r.GetX(), r.GetY(), r.GetZ(),
			move.GetMapVersion())
	}
}

// pathLine is the line both examples print for a FindPath answer.
func pathLine(path *pb.FindPathResponse) string {
	return fmt.Sprintf("path: %s waypoints=%d length=%.3f version=%d",
		path.GetStatus(), len(path.GetWaypoints()), path.GetLength(), path.GetMapVersion())
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
