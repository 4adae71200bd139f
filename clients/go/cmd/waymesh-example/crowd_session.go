package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "waymesh/clients/go/waymeshv1"
)

// crowdAgent is one NPC the way a zone server keeps it: what the zone server asked for (its
// params and goal, the truth it owns) and what the service last reported (position, state).
type crowdAgent struct {
	id       uint32
	params   *pb.CrowdAgentParams
	goal     *pb.SetCrowdTarget // nil: no goal
	position *pb.Vec3
	state    pb.CrowdAgentState
}

// crowdSession is a crowd the way a zone server keeps it on the service (RunCrowd). The
// session on the service lives exactly as long as one stream, on the one replica that serves
// it; when the stream breaks (the replica restarted or was drained, the network blipped), that
// crowd is gone. So the zone server keeps its agents itself, and every position and state the
// ticks report, and on a broken stream opens a new one (on whichever replica the balanced
// channel picks) and replays them: each agent added at its last reported position with its
// params, then its goal set again. The step that found the stream broken is sent again on the
// new one. Commands are sent as they come; the tick a step produces is the point where the
// session knows that everything sent before it ran (commands run in order), or that the stream
// broke.
type crowdSession struct {
	svc     *session
	open    *pb.OpenCrowd
	agents  map[uint32]*crowdAgent
	stream  *crowdStream // nil between a break and the next step
	streams int          // streams opened
	seq     uint64       // the last command's number
	ticks   int          // steps answered, over every stream
	replays int          // agents replayed onto a new stream
	failed  int          // commands answered with command_failed
	// pending names the commands sent on the current stream whose outcome is not known yet, by
	// seq ("remove_agent id=9"), for the command_failed line.
	pending map[uint64]string
}

func newCrowdSession(svc *session, open *pb.OpenCrowd) *crowdSession {
	return &crowdSession{svc: svc, open: open, agents: map[uint32]*crowdAgent{},
		pending: map[uint64]string{}}
}

// start opens the first stream. Its errors are the ones an open has (an unknown map:
// NOT_FOUND; a replica at its --max-crowd-sessions: RESOURCE_EXHAUSTED; a bad open:
// INVALID_ARGUMENT): the caller reports them.
func (c *crowdSession) start() error { return c.reopen() }

// add puts an agent into the crowd at the surface point nearest position.
func (c *crowdSession) add(id uint32, position *pb.Vec3, params *pb.CrowdAgentParams) {
	agent := &crowdAgent{id: id, params: params, position: position}
	c.agents[id] = agent
	c.sendAdd(agent)
}

// sendAdd sends the command that adds agent at its position with its params.
func (c *crowdSession) sendAdd(agent *crowdAgent) {
	c.send(fmt.Sprintf("add_agent id=%d", agent.id), &pb.RunCrowdRequest{
		Command: &pb.RunCrowdRequest_AddAgent{AddAgent: &pb.AddCrowdAgent{
			Id: agent.id, Position: agent.position, Params: agent.params}}})
}

// setGoal sends the agent to target's goal and remembers it for a replay.
func (c *crowdSession) setGoal(target *pb.SetCrowdTarget) {
	if agent, ok := c.agents[target.GetId()]; ok {
		agent.goal = target
	}
	c.send(fmt.Sprintf("set_target id=%d", target.GetId()),
		&pb.RunCrowdRequest{Command: &pb.RunCrowdRequest_SetTarget{SetTarget: target}})
}

// remove takes an agent out of the crowd (one the session does not know too: the service
// answers command_failed NOT_FOUND, and the session goes on).
func (c *crowdSession) remove(id uint32) {
	delete(c.agents, id)
	c.send(fmt.Sprintf("remove_agent id=%d", id), &pb.RunCrowdRequest{
		Command: &pb.RunCrowdRequest_RemoveAgent{RemoveAgent: &pb.RemoveCrowdAgent{Id: id}}})
}

// loseStream cancels the current stream, as a replica that goes away would end it. Nothing is
// repaired here: the next step finds the stream broken and replays the crowd onto a new one.
func (c *crowdSession) loseStream() {
	fmt.Printf("lost: stream=%d cancelled after tick=%d (as when its replica goes away)\n",
		c.streams, c.ticks)
	c.stream.cancel()
}

// step advances the crowd by dt and returns the tick it produced, after recording every
// agent it reports. A broken stream (an error, or no tick within the call deadline) is
// replaced once: a new stream, the agents replayed, the step sent again; a second break in a
// row is returned as the error.
func (c *crowdSession) step(dt float32) (*pb.CrowdTick, error) {
	for breaks := 0; ; breaks++ {
		if c.stream == nil {
			if err := c.reopen(); err != nil {
				return nil, err
			}
		}
		seq := c.send("step", &pb.RunCrowdRequest{
			Command: &pb.RunCrowdRequest_Step{Step: &pb.StepCrowd{DtSeconds: dt}}})
		tick, err := c.awaitTick(seq)
		if err == nil {
			c.ticks++
			c.record(tick)
			return tick, nil
		}
		s, _ := status.FromError(err)
		fmt.Printf("broken: stream=%d after tick=%d: %s\n", c.streams, c.ticks,
			codeName(s.Code().String()))
		c.stream.close()
		c.stream = nil
		if breaks > 0 {
			return nil, err
		}
	}
}

// close half-closes the stream and reads it to its end: the service sends every tick still
// due, then ends the session with OK.
func (c *crowdSession) close() error {
	if c.stream == nil {
		return nil
	}
	defer func() { c.stream.close(); c.stream = nil }()
	if err := c.stream.client.CloseSend(); err != nil {
		return err
	}
	for {
		response, err := c.stream.next(c.svc.deadline)
		if err == io.EOF {
			fmt.Printf("closed: stream=%d OK\n", c.streams)
			return nil
		}
		if err != nil {
			return err
		}
		c.handle(response)
	}
}

// allArrived says whether every agent with a goal reported ARRIVED.
func (c *crowdSession) allArrived() bool {
	for _, agent := range c.agents {
		if agent.goal != nil && agent.state != pb.CrowdAgentState_CROWD_AGENT_STATE_ARRIVED {
			return false
		}
	}
	return true
}

// ids lists the agents in id order.
func (c *crowdSession) ids() []uint32 {
	ids := make([]uint32, 0, len(c.agents))
	for id := range c.agents {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// reopen opens a stream, waits for `opened` and replays every agent the session keeps.
func (c *crowdSession) reopen() error {
	ctx, cancel := c.svc.streamContext()
	client, err := pb.NewCrowdServiceClient(c.svc.conn).RunCrowd(ctx)
	if err != nil {
		cancel()
		return err
	}
	c.stream = newCrowdStream(client, cancel)
	c.streams++
	c.pending = map[uint64]string{}
	c.send("open", &pb.RunCrowdRequest{Command: &pb.RunCrowdRequest_Open{Open: c.open}})
	for {
		response, err := c.stream.next(c.svc.deadline)
		if err == io.EOF {
			err = status.Error(codes.Unavailable, "the stream ended before opened")
		}
		if err != nil {
			c.stream.close()
			c.stream = nil
			return err
		}
		if opened := response.GetOpened(); opened != nil {
			fmt.Printf("opened: stream=%d map_version=%d max_agents=%d tick_hz=%s\n", c.streams,
				opened.GetMapVersion(), opened.GetMaxAgents(), twoDecimals(opened.GetTickHz()))
			break
		}
		c.handle(response)
	}
	for _, id := range c.ids() {
		agent := c.agents[id]
		c.replays++
		fmt.Printf("replay: stream=%d id=%d at=%s state=%s %s goal=%s\n", c.streams, id,
			point(agent.position), stateName(agent.state), paramsText(agent.params),
			goalText(agent.goal))
		c.sendAdd(agent)
		if agent.goal != nil {
			c.send(fmt.Sprintf("set_target id=%d", id),
				&pb.RunCrowdRequest{Command: &pb.RunCrowdRequest_SetTarget{SetTarget: agent.goal}})
		}
	}
	return nil
}

// send numbers a command and sends it on the current stream. A send on a broken stream fails
// quietly: the step after it finds the break (io.EOF here, the stream's status from Recv). On a
// stream this client cancelled nothing is sent at all (grpc-go would still write a message
// passed to Send just after the cancel, and the server would run it).
func (c *crowdSession) send(what string, request *pb.RunCrowdRequest) uint64 {
	c.seq++
	request.Seq = c.seq
	c.pending[c.seq] = what
	if c.stream != nil && c.stream.client.Context().Err() == nil {
		_ = c.stream.client.Send(request)
	}
	return c.seq
}

// awaitTick reads the stream up to the tick of the step numbered seq.
func (c *crowdSession) awaitTick(seq uint64) (*pb.CrowdTick, error) {
	for {
		response, err := c.stream.next(c.svc.deadline)
		if err == io.EOF {
			err = status.Error(codes.Unavailable, "the stream ended before the tick")
		}
		if err != nil {
			return nil, err
		}
		if tick := response.GetTick(); tick != nil && tick.GetSeq() == seq {
			// Commands run in order: every one sent before this step has run.
			for s := range c.pending {
				if s <= seq {
					delete(c.pending, s)
				}
			}
			return tick, nil
		}
		c.handle(response)
	}
}

// handle takes in an answer that is not the awaited tick: a command failure, or a tick of
// another step.
func (c *crowdSession) handle(response *pb.RunCrowdResponse) {
	if failure := response.GetCommandFailed(); failure != nil {
		c.failed++
		s := status.FromProto(failure.GetStatus())
		what := c.pending[failure.GetSeq()]
		fmt.Printf("command_failed: seq=%d %s: %s: %s\n", failure.GetSeq(), what,
			codeName(s.Code().String()), s.Message())
		printDetails(s)
		// An agent whose add failed is not in the crowd; the session does not keep it.
		var id uint32
		if _, err := fmt.Sscanf(what, "add_agent id=%d", &id); err == nil {
			delete(c.agents, id)
		}
	}
	if tick := response.GetTick(); tick != nil {
		c.record(tick)
	}
}

// record keeps what a tick reports of each agent and prints its state changes.
func (c *crowdSession) record(tick *pb.CrowdTick) {
	for _, reported := range tick.GetAgents() {
		agent, ok := c.agents[reported.GetId()]
		if !ok {
			continue
		}
		agent.position = reported.GetPosition()
		if reported.GetState() != agent.state {
			fmt.Printf("state: tick=%d id=%d %s -> %s\n", c.ticks, agent.id,
				stateName(agent.state), stateName(reported.GetState()))
			agent.state = reported.GetState()
		}
	}
}

// crowdStream is one RunCrowd stream and the goroutine that reads it, so every wait for an
// answer can be bounded.
type crowdStream struct {
	client pb.CrowdService_RunCrowdClient
	cancel context.CancelFunc
	events chan crowdEvent
	done   chan struct{}
}

type crowdEvent struct {
	response *pb.RunCrowdResponse
	err      error // io.EOF: the stream ended with OK
}

func newCrowdStream(client pb.CrowdService_RunCrowdClient, cancel context.CancelFunc) *crowdStream {
	s := &crowdStream{client: client, cancel: cancel, events: make(chan crowdEvent, 64),
		done: make(chan struct{})}
	go func() {
		for {
			response, err := client.Recv()
			select {
			case s.events <- crowdEvent{response, err}:
			case <-s.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// next is the stream's next answer, io.EOF at its OK end, or its error; DEADLINE_EXCEEDED
// when nothing arrives within timeout (a replica that hangs is as lost as one that is gone).
func (s *crowdStream) next(timeout time.Duration) (*pb.RunCrowdResponse, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case event := <-s.events:
		return event.response, event.err
	case <-timer.C:
		return nil, status.Errorf(codes.DeadlineExceeded, "no answer on the crowd stream within %v",
			timeout)
	}
}

// close cancels the stream (if it is still open) and stops its reader.
func (s *crowdStream) close() {
	s.cancel()
	close(s.done)
}

// twoDecimals prints a number (metres, m/s, Hz) rounded to 0.01 the same way in Go and Java:
// round half up on the product by 100 in double precision, then integer digits (fmt's %.2f
// rounds the binary value half to even, Java's %.2f its shortest decimal half up: they differ
// on ties).
func twoDecimals(v float32) string {
	cm := int64(math.Floor(float64(v)*100 + 0.5))
	sign := ""
	if cm < 0 {
		sign, cm = "-", -cm
	}
	return fmt.Sprintf("%s%d.%02d", sign, cm/100, cm%100)
}

// point prints a position as x,y,z in metres rounded to 0.01.
func point(v *pb.Vec3) string {
	return twoDecimals(v.GetX()) + "," + twoDecimals(v.GetY()) + "," + twoDecimals(v.GetZ())
}

// stateName is an agent state without its enum prefix (ARRIVED).
func stateName(state pb.CrowdAgentState) string {
	return strings.TrimPrefix(state.String(), "CROWD_AGENT_STATE_")
}

func paramsText(p *pb.CrowdAgentParams) string {
	return fmt.Sprintf("radius=%s max_speed=%s", twoDecimals(p.GetRadius()),
		twoDecimals(p.GetMaxSpeed()))
}

// goalText prints what an agent walks to.
func goalText(target *pb.SetCrowdTarget) string {
	switch goal := target.GetGoal().(type) {
	case *pb.SetCrowdTarget_Point:
		return point(goal.Point)
	case *pb.SetCrowdTarget_ChaseAgent:
		return fmt.Sprintf("chase:%d", goal.ChaseAgent)
	case *pb.SetCrowdTarget_Follow:
		return fmt.Sprintf("follow:%d", goal.Follow.GetLeader())
	}
	return "none"
}
