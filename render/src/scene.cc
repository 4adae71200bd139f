#include "waymesh/render/scene.h"

namespace waymesh::render {

void Scene::Add(SceneItem item) { items.push_back(std::move(item)); }

}  // namespace waymesh::render
