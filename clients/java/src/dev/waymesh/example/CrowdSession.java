package dev.waymesh.example;

import dev.waymesh.v1.AddCrowdAgent;
import dev.waymesh.v1.CrowdAgent;
import dev.waymesh.v1.CrowdAgentParams;
import dev.waymesh.v1.CrowdAgentState;
import dev.waymesh.v1.CrowdCommandFailed;
import dev.waymesh.v1.CrowdOpened;
import dev.waymesh.v1.CrowdServiceGrpc;
import dev.waymesh.v1.CrowdTick;
import dev.waymesh.v1.OpenCrowd;
import dev.waymesh.v1.RemoveCrowdAgent;
import dev.waymesh.v1.RunCrowdRequest;
import dev.waymesh.v1.RunCrowdResponse;
import dev.waymesh.v1.SetCrowdTarget;
import dev.waymesh.v1.StepCrowd;
import dev.waymesh.v1.Vec3;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A crowd the way a zone server keeps it on the service (RunCrowd). The session on the service
 * lives exactly as long as one stream, on the one replica that serves it; when the stream breaks
 * (the replica restarted or was drained, the network blipped), that crowd is gone. So the zone
 * server keeps its agents itself, and every position and state the ticks report, and on a broken
 * stream opens a new one (on whichever replica the balanced channel picks) and replays them: each
 * agent added at its last reported position with its params, then its goal set again. The step
 * that found the stream broken is sent again on the new one. Commands are sent as they come; the
 * tick a step produces is the point where the session knows that everything sent before it ran
 * (commands run in order), or that the stream broke. Prints the same lines as the Go example's
 * crowdSession.
 */
final class CrowdSession {
  /** One NPC: what the zone server asked for (params, goal) and what the service reported. */
  static final class Agent {
    final int id;
    final CrowdAgentParams params;
    SetCrowdTarget goal; // null: no goal
    Vec3 position;
    CrowdAgentState state = CrowdAgentState.CROWD_AGENT_STATE_UNSPECIFIED;

    Agent(int id, Vec3 position, CrowdAgentParams params) {
      this.id = id;
      this.position = position;
      this.params = params;
    }
  }

  private static final Pattern ADD = Pattern.compile("add_agent id=(\\d+)");

  private final Session session;
  private final OpenCrowd open;
  /** In id order. */
  final TreeMap<Integer, Agent> agents = new TreeMap<>();

  private Stream stream; // null between a break and the next step
  int streams; // streams opened
  private long seq; // the last command's number
  int ticks; // steps answered, over every stream
  int replays; // agents replayed onto a new stream
  int failed; // commands answered with command_failed
  // The commands sent on the current stream whose outcome is not known yet, by seq
  // ("remove_agent id=9"), for the command_failed line.
  private final Map<Long, String> pending = new HashMap<>();

  CrowdSession(Session session, OpenCrowd open) {
    this.session = session;
    this.open = open;
  }

  /**
   * Opens the first stream; throws its error (an unknown map: NOT_FOUND; a replica at its
   * --max-crowd-sessions: RESOURCE_EXHAUSTED; a bad open: INVALID_ARGUMENT) as CallFailed.
   */
  void start() {
    CallFailed.call("RunCrowd", () -> {
      reopen();
      return null;
    });
  }

  /** Puts an agent into the crowd at the surface point nearest position. */
  void add(int id, Vec3 position, CrowdAgentParams params) {
    Agent agent = new Agent(id, position, params);
    agents.put(id, agent);
    sendAdd(agent);
  }

  /** Sends the command that adds the agent at its position with its params. */
  private void sendAdd(Agent agent) {
    send(
        "add_agent id=" + agent.id,
        RunCrowdRequest.newBuilder()
            .setAddAgent(
                AddCrowdAgent.newBuilder()
                    .setId(agent.id)
                    .setPosition(agent.position)
                    .setParams(agent.params)));
  }

  /** Sends the agent to the target's goal and remembers it for a replay. */
  void setGoal(SetCrowdTarget target) {
    Agent agent = agents.get(target.getId());
    if (agent != null) {
      agent.goal = target;
    }
    send("set_target id=" + target.getId(), RunCrowdRequest.newBuilder().setSetTarget(target));
  }

  /**
   * Takes an agent out of the crowd (one the session does not know too: the service answers
   * command_failed NOT_FOUND, and the session goes on).
   */
  void remove(int id) {
    agents.remove(id);
    send(
        "remove_agent id=" + id,
        RunCrowdRequest.newBuilder().setRemoveAgent(RemoveCrowdAgent.newBuilder().setId(id)));
  }

  /**
   * Cancels the current stream, as a replica that goes away would end it. Nothing is repaired
   * here: the next step finds the stream broken and replays the crowd onto a new one.
   */
  void loseStream() {
    System.out.printf(
        "lost: stream=%d cancelled after tick=%d (as when its replica goes away)%n",
        streams, ticks);
    stream.cancel();
  }

  /**
   * Advances the crowd by dt and returns the tick it produced, after recording every agent it
   * reports. A broken stream (an error, or no tick within the call deadline) is replaced once: a
   * new stream, the agents replayed, the step sent again; a second break in a row is thrown as
   * CallFailed.
   */
  CrowdTick step(float dt) {
    for (int breaks = 0; ; breaks++) {
      try {
        if (stream == null) {
          reopen();
        }
        long stepSeq =
            send(
                "step",
                RunCrowdRequest.newBuilder().setStep(StepCrowd.newBuilder().setDtSeconds(dt)));
        CrowdTick tick = awaitTick(stepSeq);
        ticks++;
        record(tick);
        return tick;
      } catch (StatusRuntimeException e) {
        if (stream == null) { // the reopen failed
          throw new CallFailed("RunCrowd", e);
        }
        System.out.printf(
            "broken: stream=%d after tick=%d: %s%n", streams, ticks, e.getStatus().getCode());
        stream.close();
        stream = null;
        if (breaks > 0) {
          throw new CallFailed("RunCrowd", e);
        }
      }
    }
  }

  /**
   * Half-closes the stream and reads it to its end: the service sends every tick still due, then
   * ends the session with OK.
   */
  void close() {
    if (stream == null) {
      return;
    }
    try {
      stream.requests.onCompleted();
      for (RunCrowdResponse response = stream.next(session.deadlineMs());
          response != null;
          response = stream.next(session.deadlineMs())) {
        handle(response);
      }
      System.out.printf("closed: stream=%d OK%n", streams);
    } catch (StatusRuntimeException e) {
      throw new CallFailed("RunCrowd", e);
    } finally {
      stream.close();
      stream = null;
    }
  }

  /** Whether every agent with a goal reported ARRIVED. */
  boolean allArrived() {
    return agents.values().stream()
        .allMatch(a -> a.goal == null || a.state == CrowdAgentState.CROWD_AGENT_STATE_ARRIVED);
  }

  /** Opens a stream, waits for `opened` and replays every agent the session keeps. */
  private void reopen() {
    stream = new Stream(session.stream(CrowdServiceGrpc.newStub(session.channel)));
    streams++;
    pending.clear();
    send("open", RunCrowdRequest.newBuilder().setOpen(open));
    try {
      while (true) {
        RunCrowdResponse response = stream.next(session.deadlineMs());
        if (response == null) {
          throw Status.UNAVAILABLE
              .withDescription("the stream ended before opened")
              .asRuntimeException();
        }
        if (response.hasOpened()) {
          CrowdOpened opened = response.getOpened();
          System.out.printf(
              "opened: stream=%d map_version=%s max_agents=%s tick_hz=%s%n",
              streams,
              Long.toUnsignedString(opened.getMapVersion()),
              Integer.toUnsignedString(opened.getMaxAgents()),
              twoDecimals(opened.getTickHz()));
          break;
        }
        handle(response);
      }
    } catch (StatusRuntimeException e) {
      stream.close();
      stream = null;
      throw e;
    }
    for (Agent agent : agents.values()) {
      replays++;
      System.out.printf(
          "replay: stream=%d id=%d at=%s state=%s %s goal=%s%n",
          streams,
          agent.id,
          point(agent.position),
          stateName(agent.state),
          paramsText(agent.params),
          goalText(agent.goal));
      sendAdd(agent);
      if (agent.goal != null) {
        send("set_target id=" + agent.id, RunCrowdRequest.newBuilder().setSetTarget(agent.goal));
      }
    }
  }

  /**
   * Numbers a command and sends it on the current stream. A send on a broken stream fails
   * quietly: the step after it finds the break (the stream's status).
   */
  private long send(String what, RunCrowdRequest.Builder request) {
    seq++;
    pending.put(seq, what);
    if (stream != null) {
      stream.send(request.setSeq(seq).build());
    }
    return seq;
  }

  /** Reads the stream up to the tick of the step numbered stepSeq. */
  private CrowdTick awaitTick(long stepSeq) {
    while (true) {
      RunCrowdResponse response = stream.next(session.deadlineMs());
      if (response == null) {
        throw Status.UNAVAILABLE
            .withDescription("the stream ended before the tick")
            .asRuntimeException();
      }
      if (response.hasTick() && response.getTick().getSeq() == stepSeq) {
        // Commands run in order: every one sent before this step has run.
        pending.keySet().removeIf(s -> s <= stepSeq);
        return response.getTick();
      }
      handle(response);
    }
  }

  /** Takes in an answer that is not the awaited tick: a command failure, or another tick. */
  private void handle(RunCrowdResponse response) {
    if (response.hasCommandFailed()) {
      failed++;
      CrowdCommandFailed failure = response.getCommandFailed();
      com.google.rpc.Status status = failure.getStatus();
      String what = pending.getOrDefault(failure.getSeq(), "");
      System.out.printf(
          "command_failed: seq=%s %s: %s: %s%n",
          Long.toUnsignedString(failure.getSeq()),
          what,
          Status.fromCodeValue(status.getCode()).getCode(),
          status.getMessage());
      ErrorReport.detailLines(status).forEach(System.out::println);
      // An agent whose add failed is not in the crowd; the session does not keep it.
      Matcher add = ADD.matcher(what);
      if (add.matches()) {
        agents.remove(Integer.parseInt(add.group(1)));
      }
    }
    if (response.hasTick()) {
      record(response.getTick());
    }
  }

  /** Keeps what a tick reports of each agent and prints its state changes. */
  private void record(CrowdTick tick) {
    for (CrowdAgent reported : tick.getAgentsList()) {
      Agent agent = agents.get(reported.getId());
      if (agent == null) {
        continue;
      }
      agent.position = reported.getPosition();
      if (reported.getState() != agent.state) {
        System.out.printf(
            "state: tick=%d id=%d %s -> %s%n",
            ticks, agent.id, stateName(agent.state), stateName(reported.getState()));
        agent.state = reported.getState();
      }
    }
  }

  /**
   * One RunCrowd stream; a queue of what arrived on it, so every wait for an answer can be
   * bounded.
   */
  private static final class Stream {
    private static final Object END = new Object(); // the stream ended with OK
    private final LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private ClientCallStreamObserver<RunCrowdRequest> requests;

    Stream(CrowdServiceGrpc.CrowdServiceStub stub) {
      stub.runCrowd(
          new ClientResponseObserver<RunCrowdRequest, RunCrowdResponse>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<RunCrowdRequest> call) {
              requests = call;
            }

            @Override
            public void onNext(RunCrowdResponse response) {
              events.add(response);
            }

            @Override
            public void onError(Throwable t) {
              // A StatusRuntimeException keeps the trailers, so ErrorReport finds the details.
              events.add(
                  t instanceof StatusRuntimeException
                      ? t
                      : Status.fromThrowable(t).asRuntimeException());
            }

            @Override
            public void onCompleted() {
              events.add(END);
            }
          });
    }

    void send(RunCrowdRequest request) {
      try {
        requests.onNext(request);
      } catch (IllegalStateException e) {
        // The call was cancelled or closed: the next read returns how it ended.
      }
    }

    /**
     * The next answer, null at the stream's OK end; throws its error, or DEADLINE_EXCEEDED when
     * nothing arrives within timeoutMs (a replica that hangs is as lost as one that is gone).
     */
    RunCrowdResponse next(long timeoutMs) {
      Object event;
      try {
        event = events.poll(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Status.CANCELLED.withCause(e).asRuntimeException();
      }
      if (event == null) {
        throw Status.DEADLINE_EXCEEDED
            .withDescription("no answer on the crowd stream within " + timeoutMs + " ms")
            .asRuntimeException();
      }
      if (event instanceof StatusRuntimeException e) {
        throw e;
      }
      return event == END ? null : (RunCrowdResponse) event;
    }

    /** Cancels the call, as a lost replica ends it; its end arrives as CANCELLED. */
    void cancel() {
      requests.cancel("the client dropped the stream (a lost replica)", null);
    }

    /** Cancels the call if it is still open (a no-op once it ended). */
    void close() {
      requests.cancel("the crowd session moved on", null);
    }
  }

  /**
   * A number (metres, m/s, Hz) rounded to 0.01 the same way in Go and Java: round half up on
   * the product by 100 in double precision, then integer digits (Java's %.2f rounds the shortest
   * decimal half up, Go's the binary value half to even: they differ on ties).
   */
  static String twoDecimals(float v) {
    long cm = (long) Math.floor((double) v * 100 + 0.5);
    String sign = cm < 0 ? "-" : "";
    cm = Math.abs(cm);
    return String.format(Locale.ROOT, "%s%d.%02d", sign, cm / 100, cm % 100);
  }

  /** A position as x,y,z in metres rounded to 0.01. */
  static String point(Vec3 v) {
    return twoDecimals(v.getX()) + "," + twoDecimals(v.getY()) + "," + twoDecimals(v.getZ());
  }

  /** An agent state without its enum prefix (ARRIVED). */
  static String stateName(CrowdAgentState state) {
    return state.name().replaceFirst("^CROWD_AGENT_STATE_", "");
  }

  static String paramsText(CrowdAgentParams p) {
    return "radius=" + twoDecimals(p.getRadius()) + " max_speed=" + twoDecimals(p.getMaxSpeed());
  }

  /** What an agent walks to. */
  static String goalText(SetCrowdTarget target) {
    if (target == null) {
      return "none";
    }
    return switch (target.getGoalCase()) {
      case POINT -> point(target.getPoint());
      case CHASE_AGENT -> "chase:" + Integer.toUnsignedString(target.getChaseAgent());
      case FOLLOW -> "follow:" + Integer.toUnsignedString(target.getFollow().getLeader());
      default -> "none";
    };
  }
}
