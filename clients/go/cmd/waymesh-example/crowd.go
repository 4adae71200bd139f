package main

import (
	"flag"
	"fmt"
	"math"

	pb "waymesh/clients/go/waymeshv1"
)

// unknownAgent is the id the demo removes without having added it: the service answers
// command_failed NOT_FOUND with the command's seq, and the session goes on.
const unknownAgent = 999

// crowdFlags are the flags of `waymesh-example crowd`.
type crowdFlags struct {
	agents, breakAfter, maxTicks, reportEvery int
	spacing, dt, radius, maxSpeed             float64
	mode                                      string
}

func (o *crowdFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&o.agents, "agents", 6, "agents in the crowd, ids 1..N (at most 64)")
	fs.Float64Var(&o.spacing, "spacing", 1.5,
		"metres between the agents' spawn points, rows of 3 behind --start")
	fs.Float64Var(&o.radius, "radius", 0.5, "each agent's radius, metres")
	fs.Float64Var(&o.maxSpeed, "max-speed", 3.5, "each agent's top speed, m/s")
	fs.Float64Var(&o.dt, "dt", 0.05, "seconds each step advances the crowd")
	fs.IntVar(&o.breakAfter, "break-after", 40,
		"cancel the stream after this many ticks (a lost replica); 0 = never")
	fs.IntVar(&o.maxTicks, "max-ticks", 600, "tick budget: stop stepping after this many ticks")
	fs.IntVar(&o.reportEvery, "report-every", 20, "print the state counts every this many ticks")
	fs.StringVar(&o.mode, "mode", "orca", "avoidance: orca or circling")
}

func (o *crowdFlags) check() error {
	switch {
	case o.agents < 1 || o.agents > 64:
		return fmt.Errorf("--agents: want 1..64, got %d", o.agents)
	case o.maxTicks < 1 || o.reportEvery < 1 || o.breakAfter < 0:
		return fmt.Errorf("--max-ticks and --report-every must be positive, --break-after not negative")
	case o.mode != "orca" && o.mode != "circling":
		return fmt.Errorf("--mode: want orca or circling, got %q", o.mode)
	}
	return nil
}

// runCrowd is the crowd demo: a caller-stepped crowd on the map, --agents agents spawned in
// rows of three behind start (away from end), all sent to end (so they share a ring of slots
// round it), stepped by --dt. After --break-after ticks the stream is cancelled, as a replica
// that goes away would end it; the next step finds it broken, opens a new stream and replays
// the agents (crowdSession), and the crowd walks on until every agent arrived or --max-ticks.
// A remove of an agent the crowd never had shows that a failed command does not end the session.
func runCrowd(svc *session, mapID, agentType string, start, end *pb.Vec3, o crowdFlags) {
	mode := pb.CrowdMode_CROWD_MODE_ORCA
	if o.mode == "circling" {
		mode = pb.CrowdMode_CROWD_MODE_CIRCLING
	}
	crowd := newCrowdSession(svc, &pb.OpenCrowd{MapId: mapID, AgentType: agentType, Mode: mode})
	exitOnError("RunCrowd", crowd.start())

	params := &pb.CrowdAgentParams{Radius: float32(o.radius), MaxSpeed: float32(o.maxSpeed)}
	for i, position := range spawnPoints(start, end, o.agents, o.spacing) {
		crowd.add(uint32(i+1), position, params)
	}
	for _, id := range crowd.ids() {
		crowd.setGoal(&pb.SetCrowdTarget{Id: id, Goal: &pb.SetCrowdTarget_Point{Point: end}})
	}
	fmt.Printf("crowd: agents=%d %s goal=%s mode=%s dt=%s\n", len(crowd.agents), paramsText(params),
		point(end), o.mode, twoDecimals(float32(o.dt)))
	crowd.remove(unknownAgent)

	for t := 1; t <= o.maxTicks && !crowd.allArrived(); t++ {
		tick, err := crowd.step(float32(o.dt))
		exitOnError("RunCrowd", err)
		if t%o.reportEvery == 0 {
			fmt.Printf("tick: tick=%d stream=%d stream_tick=%d agents=%d %s\n", t, crowd.streams,
				tick.GetTick(), tick.GetAgentCount(), crowd.stateCounts())
		}
		if t == o.breakAfter {
			printAgents(crowd, "at")
			crowd.loseStream()
		}
	}
	printAgents(crowd, "final")
	exitOnError("RunCrowd", crowd.close())
	arrived := 0
	for _, agent := range crowd.agents {
		if agent.state == pb.CrowdAgentState_CROWD_AGENT_STATE_ARRIVED {
			arrived++
		}
	}
	fmt.Printf("crowd: ticks=%d streams=%d replayed=%d command_failed=%d arrived=%d of %d\n",
		crowd.ticks, crowd.streams, crowd.replays, crowd.failed, arrived, len(crowd.agents))
}

// spawnPoints are n points in rows of three behind start, looking towards end: row r is
// r*spacing behind start, the three columns spacing apart across. Computed in double
// precision from the float32 inputs, one operation at a time, as the Java example does, so both
// send the same positions.
func spawnPoints(start, end *pb.Vec3, n int, spacing float64) []*pb.Vec3 {
	dx := float64(start.GetX()) - float64(end.GetX())
	dz := float64(start.GetZ()) - float64(end.GetZ())
	length := math.Sqrt(float64(dx*dx) + float64(dz*dz))
	if length == 0 {
		dx, dz, length = -1, 0, 1
	}
	backX, backZ := dx/length, dz/length // away from end
	acrossX, acrossZ := -backZ, backX
	points := make([]*pb.Vec3, n)
	for i := range points {
		behind := float64(i/3) * spacing
		aside := float64(i%3-1) * spacing
		x := float64(start.GetX()) + float64(backX*behind) + float64(acrossX*aside)
		z := float64(start.GetZ()) + float64(backZ*behind) + float64(acrossZ*aside)
		points[i] = &pb.Vec3{X: float32(x), Y: start.GetY(), Z: float32(z)}
	}
	return points
}

// stateCounts counts the agents per state, in the enum's order, states with none left out.
func (c *crowdSession) stateCounts() string {
	counts := map[pb.CrowdAgentState]int{}
	for _, agent := range c.agents {
		counts[agent.state]++
	}
	text := ""
	for state := pb.CrowdAgentState(0); int(state) < len(pb.CrowdAgentState_name); state++ {
		if counts[state] > 0 {
			text += fmt.Sprintf(" %s=%d", stateName(state), counts[state])
		}
	}
	if text == "" {
		return "none"
	}
	return text[1:]
}

// printAgents prints every agent's last reported position and state, in id order.
func printAgents(c *crowdSession, label string) {
	for _, id := range c.ids() {
		agent := c.agents[id]
		fmt.Printf("%s: tick=%d id=%d at=%s state=%s %s\n", label, c.ticks, id, point(agent.position),
			stateName(agent.state), paramsText(agent.params))
	}
}
