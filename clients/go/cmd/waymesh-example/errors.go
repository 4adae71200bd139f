package main

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// exitOnError prints a failed call and exits 2: "error: <method>: <CODE>: <message>", then
// one line per error detail the server attached (google.rpc types from the
// grpc-status-details-bin trailer). Programs branch on the ErrorInfo reason, never on the
// message text.
func exitOnError(method string, err error) {
	if err == nil {
		return
	}
	var inner *callError
	if errors.As(err, &inner) {
		method, err = inner.method, inner.err
	}
	s, _ := status.FromError(err)
	fmt.Printf("error: %s: %s: %s\n", method, codeName(s.Code().String()), s.Message())
	printDetails(s)
	os.Exit(2)
}

// printDetails prints one line per error detail of s: "error-info: reason=<REASON>
// domain=<DOMAIN> [key=value...]", "bad-request: field=<F> description=<D>", "retry-info:
// delay_ms=<N>".
func printDetails(s *status.Status) {
	for _, detail := range s.Details() {
		switch d := detail.(type) {
		case *errdetails.ErrorInfo:
			fmt.Printf("error-info: reason=%s domain=%s%s\n", d.GetReason(), d.GetDomain(),
				sortedPairs(d.GetMetadata()))
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				fmt.Printf("bad-request: field=%s description=%s\n", v.GetField(), v.GetDescription())
			}
		case *errdetails.RetryInfo:
			delay := d.GetRetryDelay()
			fmt.Printf("retry-info: delay_ms=%d\n", delay.GetSeconds()*1000+int64(delay.GetNanos())/1e6)
		case error:
			fmt.Printf("error-detail: undecodable: %v\n", d)
		}
	}
}

// callError is the error of a call made on behalf of another one (the PutObstacleLayer of a
// resync), so the report names the call that failed.
type callError struct {
	method string
	err    error
}

func (e *callError) Error() string { return e.method + ": " + e.err.Error() }
func (e *callError) Unwrap() error { return e.err }

// sortedPairs formats ErrorInfo metadata as " key=value" pairs in key order.
func sortedPairs(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%s", k, m[k])
	}
	return b.String()
}

var wordStart = regexp.MustCompile(`([a-z])([A-Z])`)

// codeName spells a status code the way the gRPC spec and the Java client do ("NotFound" ->
// "NOT_FOUND").
func codeName(goName string) string {
	if goName == "Canceled" {
		return "CANCELLED"
	}
	return strings.ToUpper(wordStart.ReplaceAllString(goName, "${1}_${2}"))
}
