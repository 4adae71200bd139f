package dev.waymesh.example;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lines a failed call is reported with: "error: method: CODE: message", then one line per
 * google.rpc error detail the server attached in the grpc-status-details-bin trailer (the same
 * lines as the Go example). Programs branch on the ErrorInfo reason, never on the message.
 */
final class ErrorReport {
  private ErrorReport() {}

  static List<String> lines(String method, StatusRuntimeException e) {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            "error: %s: %s: %s",
            method, e.getStatus().getCode(), nullToEmpty(e.getStatus().getDescription())));
    // Null when the server sent no details (e.g. a deadline that expired in the client).
    com.google.rpc.Status rich = StatusProto.fromThrowable(e);
    if (rich != null) {
      out.addAll(detailLines(rich));
    }
    return out;
  }

  /** One line per error detail of a google.rpc.Status (a crowd's command_failed carries one). */
  static List<String> detailLines(com.google.rpc.Status status) {
    List<String> out = new ArrayList<>();
    for (Any detail : status.getDetailsList()) {
      out.addAll(detailLines(detail));
    }
    return out;
  }

  private static List<String> detailLines(Any detail) {
    List<String> out = new ArrayList<>();
    try {
      if (detail.is(ErrorInfo.class)) {
        ErrorInfo info = detail.unpack(ErrorInfo.class);
        StringBuilder line =
            new StringBuilder(
                String.format(
                    "error-info: reason=%s domain=%s", info.getReason(), info.getDomain()));
        for (Map.Entry<String, String> kv : new TreeMap<>(info.getMetadataMap()).entrySet()) {
          line.append(' ').append(kv.getKey()).append('=').append(kv.getValue());
        }
        out.add(line.toString());
      } else if (detail.is(BadRequest.class)) {
        BadRequest request = detail.unpack(BadRequest.class);
        for (BadRequest.FieldViolation v : request.getFieldViolationsList()) {
          out.add(
              String.format(
                  "bad-request: field=%s description=%s", v.getField(), v.getDescription()));
        }
      } else if (detail.is(RetryInfo.class)) {
        Duration delay = detail.unpack(RetryInfo.class).getRetryDelay();
        long delayMs = delay.getSeconds() * 1000 + delay.getNanos() / 1_000_000;
        out.add(String.format("retry-info: delay_ms=%d", delayMs));
      }
    } catch (InvalidProtocolBufferException e) {
      out.add("error-detail: undecodable: " + e.getMessage());
    }
    return out;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
