package dev.waymesh.example;

import dev.waymesh.v1.Vec3;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** The examples' --name=value flags; a bad one ends the program with exit status 1. */
final class Flags {
  private Flags() {}

  static Map<String, String> parse(String[] args) {
    Map<String, String> flags = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (!a.startsWith("--") || eq < 0) {
        usage("flags are --name=value, got " + a);
      }
      flags.put(a.substring(2, eq), a.substring(eq + 1));
    }
    return flags;
  }

  static long parseLong(String flag, String value) {
    return parse(flag, value, Long::parseLong, "an integer");
  }

  static float parseFloat(String flag, String value) {
    return parse(flag, value, Float::parseFloat, "a number");
  }

  static double parseDouble(String flag, String value) {
    return parse(flag, value, Double::parseDouble, "a number");
  }

  private static <T> T parse(String flag, String value, Function<String, T> parser, String what) {
    try {
      return parser.apply(value);
    } catch (NumberFormatException e) {
      usage("--" + flag + ": not " + what + ": " + value);
      return null;
    }
  }

  /** Reads "x,y,z"; null or empty is no position. */
  static Vec3 parseVec(String s) {
    if (s == null || s.isEmpty()) {
      return null;
    }
    String[] p = s.split(",");
    if (p.length != 3) {
      usage("position " + s + ": want x,y,z");
    }
    try {
      return Vec3.newBuilder()
          .setX(Float.parseFloat(p[0].trim()))
          .setY(Float.parseFloat(p[1].trim()))
          .setZ(Float.parseFloat(p[2].trim()))
          .build();
    } catch (NumberFormatException e) {
      usage("position " + s + ": " + e.getMessage());
      return null;
    }
  }

  static void usage(String why) {
    System.err.println("waymesh example: " + why);
    System.exit(1);
  }
}
