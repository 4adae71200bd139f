// Package protocodec replaces gRPC's "proto" codec when imported (for its side effect).
package protocodec

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/runtime/protoiface"
	"google.golang.org/protobuf/runtime/protoimpl"
)

// protoCodec replaces gRPC's "proto" codec. Debian 12's grpc-go (1.33) marshals through the
// old github.com/golang/protobuf 1.3 runtime, which cannot handle the messages Debian's
// protoc-gen-go (1.28, APIv2) generates: it panics on their internal fields. This codec
// marshals APIv2 messages directly and wraps the APIv1 messages that grpc-go itself ships
// (grpc_health_v1), so both kinds travel over one connection.
type protoCodec struct{}

func (protoCodec) Name() string { return "proto" }

func (protoCodec) Marshal(v interface{}) ([]byte, error) {
	m, err := messageOf(v)
	if err != nil {
		return nil, err
	}
	return proto.Marshal(m)
}

func (protoCodec) Unmarshal(data []byte, v interface{}) error {
	m, err := messageOf(v)
	if err != nil {
		return err
	}
	return proto.Unmarshal(data, m)
}

func messageOf(v interface{}) (proto.Message, error) {
	switch m := v.(type) {
	case proto.Message:
		return m, nil
	case protoiface.MessageV1:
		return protoimpl.X.ProtoMessageV2Of(m), nil
	}
	return nil, fmt.Errorf("proto codec: %T is not a protocol buffer message", v)
}

func init() { encoding.RegisterCodec(protoCodec{}) }
