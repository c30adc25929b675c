/// moco's REST `resource`: a collection at `/name` whose entries answer by method and id.
///
/// ```swift
/// let items = ResourceDefinition(
///     name: "items",
///     get: [ResourceEntry(id: "1", response: .json(["id": 1])), ResourceEntry(id: "2", response: .json(["id": 2]))],
///     post: [ResourceEntry(response: .status(201))],
///     resources: [ResourceDefinition(name: "parts", id: "*", get: [ResourceEntry(id: "*", response: .text("a part"))])]
/// )
/// // GET /items → [{"id":1},{"id":2}], GET /items/1/parts/9 → "a part", GET /items/3 → 404
/// ```
public struct ResourceDefinition: Sendable {
    /// The collection's path segment (`items` → `/items`).
    public var name: String
    /// For a sub-resource: the parent's id (`"*"`: any parent).
    public var id: String?
    public var get: [ResourceEntry]
    public var post: [ResourceEntry]
    public var put: [ResourceEntry]
    public var delete: [ResourceEntry]
    public var head: [ResourceEntry]
    public var patch: [ResourceEntry]
    /// Nested collections: `/name/{id}/sub…`.
    public var resources: [ResourceDefinition]

    public init(
        name: String, id: String? = nil, get: [ResourceEntry] = [], post: [ResourceEntry] = [], put: [ResourceEntry] = [],
        delete: [ResourceEntry] = [], head: [ResourceEntry] = [], patch: [ResourceEntry] = [], resources: [ResourceDefinition] = []
    ) {
        self.name = name
        self.id = id
        self.get = get
        self.post = post
        self.put = put
        self.delete = delete
        self.head = head
        self.patch = patch
        self.resources = resources
    }
}

/// One entry of a resource method: an optional id (`"*"` for any), an optional extra request
/// matcher, and the response.
public struct ResourceEntry: Sendable {
    public var id: String?
    public var request: RequestPattern?
    public var response: ResponseDefinition

    public init(id: String? = nil, request: RequestPattern? = nil, response: ResponseDefinition) {
        self.id = id
        self.request = request
        self.response = response
    }
}
