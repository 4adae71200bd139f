package dev.waymesh.example;

import dev.waymesh.v1.CrowdAgentParams;
import dev.waymesh.v1.CrowdAgentState;
import dev.waymesh.v1.CrowdMode;
import dev.waymesh.v1.CrowdTick;
import dev.waymesh.v1.OpenCrowd;
import dev.waymesh.v1.SetCrowdTarget;
import dev.waymesh.v1.Vec3;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * `waymesh-example crowd`: a caller-stepped crowd on the map, --agents agents spawned in rows of
 * three behind --start (away from --end), all sent to --end (so they share a ring of slots round
 * it), stepped by --dt. After --break-after ticks the stream is cancelled, as a replica that goes
 * away would end it; the next step finds it broken, opens a new stream and replays the agents
 * (CrowdSession), and the crowd walks on until every agent arrived or --max-ticks. A remove of an
 * agent the crowd never had shows that a failed command does not end the session. Prints the same
 * lines as the Go example.
 *
 * <p>Flags (besides the connection flags): --start=x,y,z --end=x,y,z [--agents=6] [--spacing=1.5]
 * [--radius=0.5] [--max-speed=3.5] [--dt=0.05] [--break-after=40] [--max-ticks=600]
 * [--report-every=20] [--mode=orca|circling].
 */
final class CrowdExample {
  /**
   * The id the demo removes without having added it: the service answers command_failed
   * NOT_FOUND with the command's seq, and the session goes on.
   */
  private static final int UNKNOWN_AGENT = 999;

  private final int agents;
  private final int breakAfter;
  private final int maxTicks;
  private final int reportEvery;
  private final double spacing;
  private final float dt;
  private final float radius;
  private final float maxSpeed;
  private final String mode;

  // The float flags are read as doubles and rounded to float, as Go's flag package and
  // float32() do, so both examples send the same numbers.
  private CrowdExample(Map<String, String> flags) {
    agents = (int) Flags.parseLong("agents", flags.getOrDefault("agents", "6"));
    spacing = Flags.parseDouble("spacing", flags.getOrDefault("spacing", "1.5"));
    radius = (float) Flags.parseDouble("radius", flags.getOrDefault("radius", "0.5"));
    maxSpeed = (float) Flags.parseDouble("max-speed", flags.getOrDefault("max-speed", "3.5"));
    dt = (float) Flags.parseDouble("dt", flags.getOrDefault("dt", "0.05"));
    breakAfter = (int) Flags.parseLong("break-after", flags.getOrDefault("break-after", "40"));
    maxTicks = (int) Flags.parseLong("max-ticks", flags.getOrDefault("max-ticks", "600"));
    reportEvery = (int) Flags.parseLong("report-every", flags.getOrDefault("report-every", "20"));
    mode = flags.getOrDefault("mode", "orca");
    if (agents < 1 || agents > 64) {
      Flags.usage("--agents: want 1..64, got " + agents);
    }
    if (maxTicks < 1 || reportEvery < 1 || breakAfter < 0) {
      Flags.usage("--max-ticks and --report-every must be positive, --break-after not negative");
    }
    if (!mode.equals("orca") && !mode.equals("circling")) {
      Flags.usage("--mode: want orca or circling, got " + mode);
    }
  }

  /** Reads the crowd flags; a bad one ends the program with exit status 1. */
  static CrowdExample fromFlags(Map<String, String> flags) {
    return new CrowdExample(flags);
  }

  void run(Session session, String mapId, String agentType, Vec3 start, Vec3 end) {
    CrowdSession crowd =
        new CrowdSession(
            session,
            OpenCrowd.newBuilder()
                .setMapId(mapId)
                .setAgentType(agentType)
                .setMode(
                    mode.equals("circling")
                        ? CrowdMode.CROWD_MODE_CIRCLING
                        : CrowdMode.CROWD_MODE_ORCA)
                .build());
    crowd.start();

    CrowdAgentParams params =
        CrowdAgentParams.newBuilder().setRadius(radius).setMaxSpeed(maxSpeed).build();
    List<Vec3> points = spawnPoints(start, end, agents, spacing);
    for (int i = 0; i < points.size(); i++) {
      crowd.add(i + 1, points.get(i), params);
    }
    for (int id : crowd.agents.keySet()) {
      crowd.setGoal(SetCrowdTarget.newBuilder().setId(id).setPoint(end).build());
    }
    System.out.printf(
        "crowd: agents=%d %s goal=%s mode=%s dt=%s%n",
        crowd.agents.size(),
        CrowdSession.paramsText(params),
        CrowdSession.point(end),
        mode,
        CrowdSession.twoDecimals(dt));
    crowd.remove(UNKNOWN_AGENT);

    for (int t = 1; t <= maxTicks && !crowd.allArrived(); t++) {
      CrowdTick tick = crowd.step(dt);
      if (t % reportEvery == 0) {
        System.out.printf(
            "tick: tick=%d stream=%d stream_tick=%s agents=%d %s%n",
            t,
            crowd.streams,
            Long.toUnsignedString(tick.getTick()),
            tick.getAgentCount(),
            stateCounts(crowd));
      }
      if (t == breakAfter) {
        printAgents(crowd, "at");
        crowd.loseStream();
      }
    }
    printAgents(crowd, "final");
    crowd.close();
    long arrived =
        crowd.agents.values().stream()
            .filter(a -> a.state == CrowdAgentState.CROWD_AGENT_STATE_ARRIVED)
            .count();
    System.out.printf(
        "crowd: ticks=%d streams=%d replayed=%d command_failed=%d arrived=%d of %d%n",
        crowd.ticks, crowd.streams, crowd.replays, crowd.failed, arrived, crowd.agents.size());
  }

  /**
   * n points in rows of three behind start, looking towards end: row r is r*spacing behind
   * start, the three columns spacing apart across. Computed in double precision from the float
   * inputs, one operation at a time, as the Go example does, so both send the same positions.
   */
  static List<Vec3> spawnPoints(Vec3 start, Vec3 end, int n, double spacing) {
    double dx = (double) start.getX() - (double) end.getX();
    double dz = (double) start.getZ() - (double) end.getZ();
    double length = Math.sqrt(dx * dx + dz * dz);
    if (length == 0) {
      dx = -1;
      dz = 0;
      length = 1;
    }
    double backX = dx / length; // away from end
    double backZ = dz / length;
    double acrossX = -backZ;
    double acrossZ = backX;
    List<Vec3> points = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double behind = (i / 3) * spacing;
      double aside = (i % 3 - 1) * spacing;
      double x = (double) start.getX() + backX * behind + acrossX * aside;
      double z = (double) start.getZ() + backZ * behind + acrossZ * aside;
      points.add(Vec3.newBuilder().setX((float) x).setY(start.getY()).setZ((float) z).build());
    }
    return points;
  }

  /** The agents per state, in the enum's order, states with none left out. */
  private static String stateCounts(CrowdSession crowd) {
    Map<CrowdAgentState, Integer> counts = new EnumMap<>(CrowdAgentState.class);
    for (CrowdSession.Agent agent : crowd.agents.values()) {
      counts.merge(agent.state, 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((state, count) -> parts.add(CrowdSession.stateName(state) + "=" + count));
    return parts.isEmpty() ? "none" : String.join(" ", parts);
  }

  /** Every agent's last reported position and state, in id order. */
  private static void printAgents(CrowdSession crowd, String label) {
    for (CrowdSession.Agent agent : crowd.agents.values()) {
      System.out.printf(
          "%s: tick=%d id=%d at=%s state=%s %s%n",
          label,
          crowd.ticks,
          agent.id,
          CrowdSession.point(agent.position),
          CrowdSession.stateName(agent.state),
          CrowdSession.paramsText(agent.params));
    }
  }
}
