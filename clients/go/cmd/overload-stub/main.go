// Command overload-stub is a test double for scripts/test_clients.sh: a gRPC server whose
// NavigationService.GetMapInfo answers RESOURCE_EXHAUSTED the way an overloaded waymesh-server
// does (ErrorInfo OVERLOADED, RetryInfo and the grpc-retry-pushback-ms trailer) for the first
// --failures attempts of every --failures+1, then a small MapInfo. It prints one line per
// attempt, "attempt N at_ms=T code=CODE", so the test can see that the examples' retry policy
// retried after the pushback delay rather than its own (shorter) backoff. The health service
// reports waymesh.v1.NavigationService SERVING. Prints "listening on PORT" first; runs until
// killed.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/golang/protobuf/ptypes"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	_ "waymesh/clients/go/protocodec"
	pb "waymesh/clients/go/waymeshv1"
)

type overloaded struct {
	pb.UnimplementedNavigationServiceServer
	failures   int
	pushbackMs int
	started    time.Time

	mu       sync.Mutex
	attempts int
}

func (s *overloaded) GetMapInfo(ctx context.Context, req *pb.GetMapInfoRequest) (*pb.GetMapInfoResponse, error) {
	s.mu.Lock()
	s.attempts++
	n := s.attempts
	s.mu.Unlock()
	atMs := time.Since(s.started).Milliseconds()
	if n%(s.failures+1) != 0 {
		fmt.Printf("attempt %d at_ms=%d code=RESOURCE_EXHAUSTED\n", n, atMs)
		if err := grpc.SetTrailer(ctx, metadata.Pairs("grpc-retry-pushback-ms", strconv.Itoa(s.pushbackMs))); err != nil {
			return nil, err
		}
		st, err := status.New(codes.ResourceExhausted, "server overloaded: queue full").WithDetails(
			&errdetails.ErrorInfo{Reason: "OVERLOADED", Domain: "waymesh.dev"},
			&errdetails.RetryInfo{RetryDelay: ptypes.DurationProto(time.Duration(s.pushbackMs) * time.Millisecond)})
		if err != nil {
			return nil, err
		}
		return nil, st.Err()
	}
	fmt.Printf("attempt %d at_ms=%d code=OK\n", n, atMs)
	return &pb.GetMapInfoResponse{Map: &pb.MapInfo{MapId: req.GetMapId(), MapVersion: 1, Polygons: 1, Tiles: 1, Islands: 1}}, nil
}

func main() {
	failures := flag.Int("failures", 2, "RESOURCE_EXHAUSTED answers before each success")
	pushbackMs := flag.Int("pushback-ms", 700, "grpc-retry-pushback-ms trailer value")
	flag.Parse()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	server := grpc.NewServer()
	pb.RegisterNavigationServiceServer(server, &overloaded{
		failures: *failures, pushbackMs: *pushbackMs, started: time.Now()})
	healthServer := health.NewServer()
	healthServer.SetServingStatus("waymesh.v1.NavigationService", grpc_health_v1.HealthCheckResponse_SERVING)
	grpc_health_v1.RegisterHealthServer(server, healthServer)
	fmt.Printf("listening on %d\n", lis.Addr().(*net.TCPAddr).Port)
	if err := server.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
