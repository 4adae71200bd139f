package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// session is the example's connection to the service: one long-lived balanced channel, and how
// every call on it gets its deadline and credentials.
type session struct {
	conn     *grpc.ClientConn
	deadline time.Duration
	token    string
	// dialOptions and authority open channels to one replica (see replica).
	dialOptions []grpc.DialOption
	authority   string
	replicas    map[string]*grpc.ClientConn
}

// dialSession opens the balanced channel. Dialing is lazy: a server that is down shows up as
// UNAVAILABLE on the first call.
func dialSession(target string, deadline time.Duration, token string,
	options ...grpc.DialOption) (*session, error) {
	conn, err := grpc.Dial(target, options...)
	if err != nil {
		return nil, err
	}
	return &session{conn: conn, deadline: deadline, token: token, dialOptions: options,
		authority: authorityOf(target), replicas: map[string]*grpc.ClientConn{}}, nil
}

// context gives each RPC its own deadline: a zone server ticks on a budget and must never wait
// for a slow or unreachable navigation pod longer than that, retries included.
func (s *session) context() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), s.deadline)
	if s.token != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+s.token)
	}
	return ctx, cancel
}

// streamContext is the context of a long-lived stream (a crowd session): no deadline, since
// the stream lives as long as the caller wants it, but cancellable, and with the credentials.
// Whoever reads the stream bounds each wait for an answer by the call deadline instead.
func (s *session) streamContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	if s.token != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+s.token)
	}
	return ctx, cancel
}

// replica returns a channel to the one replica at addr (the peer of an earlier call), opened
// once. The balanced channel sends each call to the next replica, so a resync sent on it would
// reach another replica than the one that asked for it. The replica channel keeps the balanced
// channel's authority, so TLS checks the name the certificate was issued for, not the pod IP,
// and a token goes to the same name as on the balanced channel.
func (s *session) replica(addr net.Addr) (*grpc.ClientConn, error) {
	if addr == nil {
		return nil, fmt.Errorf("the replica's address is unknown")
	}
	key := addr.String()
	if conn, ok := s.replicas[key]; ok {
		return conn, nil
	}
	// The target stays the balanced one's host:port and the dialer connects to the replica
	// instead (grpc.WithAuthority is ignored with TLS before grpc-go 1.40).
	toReplica := func(ctx context.Context, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", key)
	}
	options := append(append([]grpc.DialOption{}, s.dialOptions...), grpc.WithContextDialer(toReplica))
	conn, err := grpc.Dial("passthrough:///"+s.authority, options...)
	if err != nil {
		return nil, err
	}
	s.replicas[key] = conn
	return conn, nil
}

func (s *session) close() {
	for _, conn := range s.replicas {
		conn.Close()
	}
	s.conn.Close()
}

// authorityOf is the host:port a target names ("dns:///host:port" -> "host:port").
func authorityOf(target string) string {
	if i := strings.LastIndex(target, "/"); i >= 0 {
		return target[i+1:]
	}
	return target
}
