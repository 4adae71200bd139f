package main

import (
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// tlsOptions are the transport security flags: --tls-ca turns TLS on, --tls-cert/--tls-key
// add a client certificate for a server that requires one (its --tls-client-ca).
type tlsOptions struct {
	ca, cert, key, serverName string
}

func (o *tlsOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.ca, "tls-ca", "", "PEM CA bundle that signed the server's certificate; turns TLS on")
	fs.StringVar(&o.cert, "tls-cert", "", "PEM client certificate chain for mutual TLS (with --tls-key)")
	fs.StringVar(&o.key, "tls-key", "", "PEM private key of --tls-cert")
	fs.StringVar(&o.serverName, "tls-server-name", "",
		"name the server's certificate must carry (default: the target's host)")
}

// dialOption returns the channel's transport credentials: plaintext without --tls-ca.
func (o *tlsOptions) dialOption() (grpc.DialOption, error) {
	if o.ca == "" {
		if o.cert != "" || o.key != "" || o.serverName != "" {
			return nil, fmt.Errorf("--tls-cert, --tls-key and --tls-server-name need --tls-ca")
		}
		return grpc.WithInsecure(), nil
	}
	pem, err := os.ReadFile(o.ca)
	if err != nil {
		return nil, fmt.Errorf("--tls-ca: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--tls-ca: %s holds no PEM certificate", o.ca)
	}
	config := &tls.Config{RootCAs: roots, ServerName: o.serverName, MinVersion: tls.VersionTLS12}
	if o.cert != "" || o.key != "" {
		if o.cert == "" || o.key == "" {
			return nil, fmt.Errorf("--tls-cert and --tls-key go together")
		}
		pair, err := tls.LoadX509KeyPair(o.cert, o.key)
		if err != nil {
			return nil, fmt.Errorf("--tls-cert/--tls-key: %v", err)
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return grpc.WithTransportCredentials(credentials.NewTLS(config)), nil
}
