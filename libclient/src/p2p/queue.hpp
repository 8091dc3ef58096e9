// Intrusive FIFO of objects with prev/next links (requests, unexpected messages): O(1)
// append and removal from anywhere, no allocation. An object is on one queue at a time.
#pragma once

namespace shmpi::client::p2p {

template <class T>
struct Queue {
  T* first = nullptr;
  T* last = nullptr;
  unsigned size = 0;

  bool empty() const { return first == nullptr; }
  void push_back(T* x) {
    x->prev = last;
    x->next = nullptr;
    if (last != nullptr) {
      last->next = x;
    } else {
      first = x;
    }
    last = x;
    ++size;
  }
  void remove(T* x) {
    if (x->prev != nullptr) {
      x->prev->next = x->next;
    } else {
      first = x->next;
    }
    if (x->next != nullptr) {
      x->next->prev = x->prev;
    } else {
      last = x->prev;
    }
    x->prev = x->next = nullptr;
    --size;
  }
  bool contains(const T* x) const {
    for (const T* p = first; p != nullptr; p = p->next) {
      if (p == x) return true;
    }
    return false;
  }
};

}  // namespace shmpi::client::p2p
