#pragma once
// The crowd's tolerances and fixed constants, with their units (core's query tolerances are in
// waymesh/core/tolerances.h).

namespace waymesh::tol {

// Two agents count as overlapping (for repulsion) when their centres are closer than the sum
// of their radii minus this (metres): contact by float rounding is not an overlap.
inline constexpr float kCrowdContactSlack = 1e-3f;
// A wall is kept at the agent's radius; after the move the centre may lie this much closer by
// float rounding and the slide along the surface (metres).
inline constexpr float kCrowdWallSlack = 1e-3f;
// Agents whose centres differ in height by more than this (metres) are on different floors
// (a bridge deck over a road) and never see each other.
inline constexpr float kCrowdFloorSeparation = 2.0f;
// Velocities shorter than this (m/s) count as standing still.
inline constexpr float kCrowdStillSpeed = 1e-3f;
// Directions of the 2-D linear program closer than this to parallel (|det| of unit vectors)
// are treated as parallel.
inline constexpr float kOrcaParallel = 1e-5f;

}  // namespace waymesh::tol
