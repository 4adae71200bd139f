package main

import (
	"fmt"
	"os"
	"syscall"
)

// retryEnv switches retries on in grpc-go before 1.40 (Debian 12 ships 1.33), which reads it
// once at package initialisation; later versions retry by default and ignore it.
const retryEnv = "GRPC_GO_RETRY"

// enableGrpcGoRetry re-executes the program with GRPC_GO_RETRY=on unless it is already set
// (to anything: "off" is respected), so the retry policy of the service config applies.
func enableGrpcGoRetry() {
	if _, set := os.LookupEnv(retryEnv); set {
		return
	}
	exe, err := os.Executable()
	if err == nil {
		err = os.Setenv(retryEnv, "on")
	}
	if err == nil {
		err = syscall.Exec(exe, os.Args, os.Environ())
	}
	fmt.Fprintf(os.Stderr, "waymesh-example: cannot re-execute with %s=on (%v); retries are off\n",
		retryEnv, err)
}
